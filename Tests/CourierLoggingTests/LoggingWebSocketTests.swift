#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Logging
import Testing

@testable import CourierCurl

/// A WebSocket logs its handshake as any exchange, and its close as a line of its own with the
/// same request id.
@Suite struct LoggingWebSocketTests {
    @Test func theHandshakeAndTheServersCloseAreEachALine() async throws {
        let (logger, store) = RecordingLogHandler.logger(level: .trace)
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        var configuration = CurlTransport.Configuration()
        configuration.policies.callLayers = [logging(to: logger)]
        let transport = try CurlTransport(configuration: configuration)
        let socket = try await transport.webSocket(for: URLRequest(url: try #require(URL(string: server.url()))))
        for try await _ in socket.messages {}
        await waitUntil { store.entries.count == 2 }
        let entries = store.entries
        #expect(entries.map(\.message) == ["HTTP exchange", "WebSocket closed"])
        #expect(entries.first?.metadata["http.response.status_code"]?.description == "101")
        #expect(entries.last?.metadata["websocket.close_code"]?.description == "1000")
        #expect(entries.last?.metadata["websocket.closed_by"] == "server")
        #expect(entries.last?.metadata["request_id"] == entries.first?.metadata["request_id"])
        await transport.shutdown()
        try await server.shutdown()
    }
}

private func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<12_000 where !condition() {
        try? await Task.sleep(for: .milliseconds(10))
    }
}
#endif
