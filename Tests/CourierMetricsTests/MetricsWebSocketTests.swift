#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierMetrics
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Metrics
import MetricsTestKit
import Testing

@testable import CourierCurl

/// A WebSocket is counted open from its 101 to its end, and its end by the close code.
@Suite struct MetricsWebSocketTests {
    @Test func anOpenSocketIsMeteredAndItsCloseCountedByCode() async throws {
        let metrics = TestMetrics()
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        var configuration = CurlTransport.Configuration()
        configuration.policies.callLayers = [recordingMetrics(factory: metrics)]
        let transport = try CurlTransport(configuration: configuration)
        let socket = try await transport.webSocket(for: URLRequest(url: try #require(URL(string: server.url()))))
        for try await _ in socket.messages {}
        let closed = [("host", "127.0.0.1"), ("close_code", "1000")]
        for _ in 0..<12_000 where (try? metrics.expectCounter("courier_websockets_closed_total", closed)) == nil {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try metrics.expectCounter("courier_websockets_closed_total", closed).totalValue == 1)
        #expect(try metrics.expectTimer("courier_websocket_duration", closed).values.count == 1)
        let open = try metrics.expectMeter("courier_websockets_open", [("host", "127.0.0.1")])
        #expect(open.values == [1, 0])
        await transport.shutdown()
        try await server.shutdown()
    }
}
#endif
