#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

/// The same conversation over both engines against one NIO echo server: the same messages back
/// and the same close where both have WebSockets; where this Foundation has none, the
/// URLSession engine's refusal by name, with nothing sent.
@Suite struct WebSocketParityTests {
    @Test func bothEnginesEchoTheSameConversationOrTheURLSessionEngineRefusesByName() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let request = URLRequest(url: try #require(URL(string: server.url())))
        let curl = try CurlTransport()
        let urlSession = URLSessionTransport()
        let sent: [WebSocket.Message] = [.string("one"), .data(Data([1, 2, 3])), .string(String(repeating: "é", count: 40_000))]
        let overCurl = try await conversation(sent, over: curl, request: request)
        #expect(overCurl.messages == sent)
        #expect(overCurl.closeCode == .normalClosure)
        do {
            let overURLSession = try await conversation(sent, over: urlSession, request: request)
            #expect(overURLSession.messages == overCurl.messages)
            #expect(overURLSession.closeCode == overCurl.closeCode)
        } catch let error as RequestError {
            guard case .unsupportedOption(_, "URLSessionTransport", "CurlTransport") = error else {
                Issue.record("refused otherwise than by name: \(error)")
                return
            }
        }
        await curl.shutdown()
        await urlSession.shutdown()
        try await server.shutdown()
    }

    private func conversation(
        _ messages: [WebSocket.Message], over transport: some HTTPTransport, request: URLRequest
    ) async throws -> (messages: [WebSocket.Message], closeCode: WebSocket.CloseCode?) {
        // A close timeout only a hang reaches, where the engine takes one; URLSession has none
        // to set.
        let options = transport is URLSessionTransport ? WebSocket.Options() : WebSocket.Options(closeTimeout: 120)
        let socket = try await transport.webSocket(for: request, options: options)
        for message in messages { try await socket.send(message) }
        var received: [WebSocket.Message] = []
        for try await message in socket.messages {
            received.append(message)
            if received.count == messages.count { try await socket.close() }
        }
        return (received, socket.closeCode)
    }
}
#endif
