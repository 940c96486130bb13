#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierObservabilityTestSupport
import CourierTestServer
import Foundation
import Logging
import Testing

/// A streamed call logs its head as any exchange, and the end of its body as a line of its own
/// with the same request id: the bytes, the whole call's duration, and the error if it did not
/// arrive whole.
@Suite struct LoggingStreamedBodyTests {
    @Test(arguments: Engine.allCases)
    func aBodyReadToItsEndIsALineWithItsBytes(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let read = try await engine.withTransport(policies: Engine.policies(with: logging(to: logger))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/bytes/300000")))
            return try await body.collect(upTo: .max).count
        }
        #expect(read == 300_000)
        let entries = store.entries
        try #require(entries.count == 2)
        #expect(entries.map(\.message) == ["HTTP exchange", "HTTP response body ended"])
        #expect(entries.map(\.level) == [.debug, .debug])
        let (head, end) = (entries[0], entries[1])
        #expect(head["http.response.body.size"] == nil)
        #expect(end["http.response.body.size"] == "300000")
        #expect(end["request_id"] == head["request_id"])
        #expect(end["url.full"] == head["url.full"])
        #expect(end["http.response.status_code"] == "200")
        let headDuration = try #require(head["duration_ms"].flatMap(Double.init))
        let wholeDuration = try #require(end["duration_ms"].flatMap(Double.init))
        #expect(wholeDuration >= headDuration)
        #expect(end["error.type"] == nil)
    }

    @Test(arguments: Engine.allCases)
    func aDroppedBodyIsALineWithACancel(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        try await engine.withTransport(policies: Engine.policies(with: logging(to: logger))) { server, transport in
            // Half a body, then silence: only the drop can end it.
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/stall/1000")))
            #expect(store.entries.map(\.message) == ["HTTP exchange"])
            _ = consume body
            await waitFor { store.entries.count == 2 }
        }
        let end = try #require(store.entries.last)
        #expect(end.message == "HTTP response body failed")
        #expect(end.level == .info)
        #expect(end["error.type"] == "URLError.cancelled")
        #expect(end["request_id"] == store.entries.first?["request_id"])
    }

    @Test(arguments: Engine.allCases)
    func aBodyThatBreaksOffIsALineWithItsError(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        try await engine.withTransport(policies: Engine.policies(with: logging(to: logger))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/truncate/200000")))
            await #expect(throws: URLError.self) { for try await _ in body {} }
        }
        let entries = store.entries
        #expect(entries.map(\.message) == ["HTTP exchange", "HTTP response body failed"])
        let end = try #require(entries.last)
        #expect(end["error.type"] == "URLError.networkConnectionLost")
        let bytes = try #require(end["http.response.body.size"].flatMap(Int.init))
        #expect(bytes <= 100_000)
    }
}

