#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

@testable import CourierCurl

/// The URLSession engine's WebSocket: `URLSessionWebSocketTask` where this Foundation has it,
/// a refusal by name, with nothing sent, where it has not. Here, beside the curl engine's tests,
/// so that the same servers serve both.
@Suite struct URLSessionTransportWebSocketTests {
    @Test func opensWhereFoundationHasWebSocketsAndRefusesByNameWithNothingSentWhereItHasNot() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = URLSessionTransport()
        let request = URLRequest(url: try #require(URL(string: server.url())))
        if await FoundationWebSocketSupport.isAvailable {
            let socket = try await transport.webSocket(for: request)
            for try await _ in socket.messages {}
            #expect(socket.closeCode == .normalClosure)
        } else {
            let error = await #expect(throws: RequestError.self) { _ = try await transport.webSocket(for: request) }
            guard case .unsupportedOption(let option, let transportName, let supportedBy) = error else {
                Issue.record("expected unsupportedOption, got \(String(describing: error))")
                return
            }
            #expect(option.contains("open a WebSocket"))
            #expect(transportName == "URLSessionTransport")
            #expect(supportedBy == "CurlTransport")
            #expect(server.connections == 0)
        }
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test(arguments: [
        WebSocket.Options(compression: .permessageDeflate), WebSocket.Options(idleTimeout: 30), WebSocket.Options(closeTimeout: 1),
    ])
    func optionsURLSessionDoesNotOfferAreRefusedByName(_ options: WebSocket.Options) async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = URLSessionTransport()
        let request = URLRequest(url: try #require(URL(string: server.url())))
        let error = await #expect(throws: RequestError.self) { _ = try await transport.webSocket(for: request, options: options) }
        #expect(error?.description.hasPrefix("URLSessionTransport cannot ") == true)
        #expect(error?.description.hasSuffix("nothing was sent (CurlTransport can)") == true)
        #expect(server.connections == 0)
        await transport.shutdown()
        try await server.shutdown()
    }
}
#endif
