#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTracing
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import InMemoryTracing
import Testing
import Tracing

@testable import CourierCurl

/// A WebSocket's span lasts from its handshake to its close, and records the close code.
@Suite struct TracingWebSocketTests {
    @Test func theSpanEndsWithTheSocketAndRecordsTheCloseCode() async throws {
        let tracer = W3CRecordingTracer()
        let server = try await HandshakeScriptServer.start([.upgradeThenWait()], accept: WebSocketHandshake.acceptValue(forKey:))
        var configuration = CurlTransport.Configuration()
        configuration.policies.callLayers = [tracing(tracer: tracer)]
        let transport = try CurlTransport(configuration: configuration)
        // A close timeout only a hang reaches: the socket must end by the server's hanging up.
        let socket = try await transport.webSocket(
            for: URLRequest(url: try #require(URL(string: server.url()))), options: .init(closeTimeout: 120))
        // Open: the span is still running.
        #expect(tracer.recorder.finishedSpans.isEmpty)
        // The server ends the connection when the client's close comes, without a close of its
        // own: the socket fails as connections that end so do, and the span ends with it.
        await #expect(throws: URLError.self) { try await socket.close(.goingAway) }
        for _ in 0..<12_000 where tracer.recorder.finishedSpans.isEmpty {
            try await Task.sleep(for: .milliseconds(10))
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 101)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "URLError.networkConnectionLost")
        await transport.shutdown()
        try await server.shutdown()
    }
}
#endif
