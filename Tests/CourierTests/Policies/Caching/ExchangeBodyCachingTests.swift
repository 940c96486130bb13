#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

@testable import Courier

/// Bodies on their way into a store and out of it, without a transport: a tee ends its writer
/// once, and a stored body that fails part-way says which response it was.
struct ExchangeBodyCachingTests {
    /// Records what a tee tells it; refuses chunks once `limit` bytes were written.
    private final class RecordingWriter: CacheBodyWriter {
        private let state = Locked((written: 0, commits: 0, abandons: 0))
        private let limit: Int

        init(limit: Int = .max) { self.limit = limit }

        var counts: (written: Int, commits: Int, abandons: Int) { state.withLock { $0 } }

        func write(_ chunk: Data) -> Bool {
            state.withLock { state in
                guard state.written + chunk.count <= limit else { return false }
                state.written += chunk.count
                return true
            }
        }

        func commit() { state.withLock { $0.commits += 1 } }
        func abandon() { state.withLock { $0.abandons += 1 } }
    }

    /// Reads `chunks`, then fails.
    private final class FailingReader: CacheBodyReader {
        private let chunks = Locked([Data(repeating: 7, count: 100)])

        func read(upTo maximumBytes: Int) throws -> Data? {
            guard let chunk = chunks.withLock({ $0.popLast() }) else { throw CocoaError(.fileReadCorruptFile) }
            return chunk
        }

        func close() {}
    }

    @Test func aTeeCommitsOnceAndDoesNotAbandonWhatItCommitted() {
        let writer = RecordingWriter()
        do {
            let tee = CacheBodyTee(writer)
            tee.write(Data(count: 10))
            tee.commit()
            tee.commit()
        }
        #expect(writer.counts.written == 10)
        #expect(writer.counts.commits == 1)
        #expect(writer.counts.abandons == 0)
    }

    @Test func aTeeLetGoOfBeforeTheEndAbandonsOnce() {
        let writer = RecordingWriter()
        do {
            let tee = CacheBodyTee(writer)
            tee.write(Data(count: 10))
        }
        #expect(writer.counts.commits == 0)
        #expect(writer.counts.abandons == 1)
    }

    @Test func aTeeWhoseWriterRefusedAChunkWritesAndCommitsNothingMore() {
        let writer = RecordingWriter(limit: 15)
        do {
            let tee = CacheBodyTee(writer)
            tee.write(Data(count: 10))
            tee.write(Data(count: 10))
            tee.write(Data(count: 1))
            tee.commit()
        }
        // The writer let go of what it wrote when it refused: nobody tells it anything after.
        #expect(writer.counts.written == 10)
        #expect(writer.counts.commits == 0)
        #expect(writer.counts.abandons == 0)
    }

    @Test func aStoredBodyThatFailsPartWayNamesTheStoredResponse() async throws {
        let url = try #require(URL(string: "http://127.0.0.1/cache/stored"))
        let body = try #require(ResponseBody.stored(FailingReader(), url: url, metrics: ExchangeMetrics()))
        var received = 0
        do {
            for try await chunk in body { received += chunk.count }
            Issue.record("the body ended without its failure")
        } catch let error as URLError {
            #expect(error.code == .resourceUnavailable)
            #expect(error.failingURL == url)
            #expect(error.localizedDescription.contains("the body of GET \(url.absoluteString) stored in the cache could not be read to its end"))
        }
        #expect(received == 100)
    }
}
