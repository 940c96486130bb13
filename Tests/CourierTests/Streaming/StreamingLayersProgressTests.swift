#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// ``StreamingLayers/reportingProgress(every:_:)`` over engine doubles that pull the upload
/// through an ``UploadBodyReader`` and hand the body over in chunks, as the real engines do.
@Suite struct StreamingLayersProgressTests {
    /// Collects every report.
    private final class Reports: Sendable {
        private let list = Locked<[TransferProgress]>([])
        var observer: @Sendable (TransferProgress) -> Void { { progress in self.list.withLock { $0.append(progress) } } }
        var all: [TransferProgress] { list.withLock { $0 } }
    }

    private static let url = URL(string: "http://127.0.0.1/download")!

    /// An engine that reads the whole upload as libcurl would, then answers with `chunks` and
    /// `headers`. Returns how many bytes it read.
    private static func engine(
        chunks: [Data], headers: [String: String], uploaded: Locked<Int64> = Locked(0)
    ) -> StreamingNetworking {
        { request, upload in
            if let upload { uploaded.withLock { $0 = 0 } ; let count = try await drain(upload) ; uploaded.withLock { $0 = count } }
            let storage = ResponseBodyStorage(bufferSize: 1 << 20) { _ in }
            for chunk in chunks { storage.write(chunk) }
            storage.finish()
            let fields = HeaderFields(headers.map { HeaderField(name: $0.key, value: $0.value) })
            return (ResponseBody(storage), ResponseHead(statusCode: 200, headerFields: fields, url: url))
        }
    }

    /// Reads `upload` to its end through a reader, in 16 KiB pieces, waiting when it has nothing.
    private static func drain(_ upload: RequestBody) async throws -> Int64 {
        let (readable, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let reader = UploadBodyReader(upload, bufferSize: 32 << 10) { signal.yield() }
        reader.start()
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        var total: Int64 = 0
        var wakeUps = readable.makeAsyncIterator()
        while true {
            let read = buffer.withUnsafeMutableBytes { reader.read(into: $0) }
            switch read {
            case .bytes(let count): total += Int64(count)
            case .wait: _ = await wakeUps.next()
            case .end: return total
            case .failed: throw reader.failure ?? CancellationError()
            }
        }
    }

    @Test func reportsTheHeadEachChunkAndTheEnd() async throws {
        let reports = Reports()
        let chunks = [Data(count: 10), Data(count: 20), Data(count: 30)]
        let networking = layered(
            Self.engine(chunks: chunks, headers: ["Content-Length": "60"]),
            [StreamingLayers.reportingProgress(every: .zero, reports.observer)]
        )
        let (body, _) = try await networking(URLRequest(url: Self.url), nil)
        #expect(reports.all == [TransferProgress(expectedBytesToSend: 0, expectedBytesToReceive: 60)])
        #expect(try await body.collect(upTo: 100).count == 60)
        #expect(reports.all.map(\.bytesReceived) == [0, 10, 30, 60, 60])
        #expect(reports.all.map(\.expectedBytesToReceive) == [60, 60, 60, 60, 60])
        #expect(reports.all.map(\.isFinished) == [false, false, false, false, true])
        #expect(reports.all.last?.fractionReceived == 1)
    }

    @Test func anEncodedBodyHasNoTotalUntilItEnds() async throws {
        let reports = Reports()
        let networking = layered(
            Self.engine(chunks: [Data(count: 100)], headers: ["Content-Length": "10", "Content-Encoding": "gzip"]),
            [StreamingLayers.reportingProgress(every: .zero, reports.observer)]
        )
        let (body, _) = try await networking(URLRequest(url: Self.url), nil)
        _ = try await body.collect(upTo: 1000)
        #expect(reports.all.map(\.expectedBytesToReceive) == [nil, nil, 100])
        #expect(reports.all.map(\.fractionReceived) == [nil, nil, 1])
    }

    @Test func moreBytesThanAnnouncedDropTheTotal() async throws {
        let reports = Reports()
        let networking = layered(
            Self.engine(chunks: [Data(count: 8), Data(count: 8)], headers: ["Content-Length": "10"]),
            [StreamingLayers.reportingProgress(every: .zero, reports.observer)]
        )
        let (body, _) = try await networking(URLRequest(url: Self.url), nil)
        _ = try await body.collect(upTo: 1000)
        #expect(reports.all.map(\.expectedBytesToReceive) == [10, 10, nil, 16])
        #expect(reports.all.allSatisfy { ($0.fractionReceived ?? 0) <= 1 })
    }

    @Test(arguments: ["data", "file", "stream"])
    func countsUploadBytesAsTheEngineTakesThem(source: String) async throws {
        let reports = Reports()
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0) })
        let upload: RequestBody
        var file: URL?
        switch source {
        case "data":
            upload = .data(bytes)
        case "file":
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("progress-\(UUID().uuidString)")
            try bytes.write(to: url)
            file = url
            upload = try .file(url)
        default:
            let pieces = stride(from: 0, to: bytes.count, by: 50_000).map { bytes[$0..<min($0 + 50_000, bytes.count)] }
            upload = .stream(AsyncStream { continuation in
                for piece in pieces { continuation.yield(Data(piece)) }
                continuation.finish()
            }, length: Int64(bytes.count))
        }
        defer { file.map { try? FileManager.default.removeItem(at: $0) } }
        let uploaded = Locked<Int64>(0)
        let networking = layered(
            Self.engine(chunks: [], headers: ["Content-Length": "0"], uploaded: uploaded),
            [StreamingLayers.reportingProgress(every: .zero, reports.observer)]
        )
        var request = URLRequest(url: Self.url)
        request.httpMethod = "PUT"
        let (body, _) = try await networking(request, upload)
        _ = try await body.collect(upTo: 10)
        #expect(uploaded.withLock { $0 } == Int64(bytes.count))
        let sent = reports.all.map(\.bytesSent)
        #expect(sent.count > 10)
        #expect(sent == sent.sorted())
        #expect(sent.last == Int64(bytes.count))
        #expect(reports.all.allSatisfy { $0.expectedBytesToSend == Int64(bytes.count) })
        #expect(reports.all.last?.fractionSent == 1)
    }

    @Test func anObservedBodyIsReplayableWhenItsSourceWas() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        try Data("x".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(RequestBody.data(Data("a".utf8)).observingReads { _ in }.isReplayable)
        #expect(try RequestBody.file(url).observingReads { _ in }.isReplayable)
        let stream = RequestBody.stream(AsyncStream<Data> { $0.finish() })
        #expect(!stream.observingReads { _ in }.isReplayable)
    }

    @Test func anObservedBodySendsTheSameBytesEachTime() async throws {
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let counts = Locked<[Int64]>([])
        let upload = RequestBody.data(bytes).observingReads { count in counts.withLock { $0.append(count) } }
        #expect(try await upload.collect() == bytes)
        #expect(try await Self.drain(upload) == Int64(bytes.count))
        #expect(try await upload.collect() == bytes)
        #expect(counts.withLock { $0 }.filter { $0 == Int64(bytes.count) }.count == 3)
    }

    @Test func reportsAreThrottledButTheHeadAndEndAlwaysCome() async throws {
        let reports = Reports()
        let chunks = Array(repeating: Data(count: 1000), count: 50)
        let networking = layered(
            Self.engine(chunks: chunks, headers: ["Content-Length": "50000"]),
            [StreamingLayers.reportingProgress(every: .seconds(3600), reports.observer)]
        )
        let (body, _) = try await networking(URLRequest(url: Self.url), nil)
        _ = try await body.collect(upTo: 100_000)
        #expect(reports.all.map(\.bytesReceived) == [0, 50_000])
        #expect(reports.all.last?.isFinished == true)
    }
}
