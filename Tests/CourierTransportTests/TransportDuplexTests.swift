#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// A duplex body (`RequestBody.duplex`), whose next piece waits until part of the response was
/// read: a conversation completes on the engine that streams both ways at once, and the other
/// refuses it by name before anything is sent, rather than waiting for ever.
@Suite struct TransportDuplexTests {
    @Test(arguments: TransportKind.configured)
    func aConversationCompletesOrIsRefusedBeforeAnythingIsSent(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        do {
            try await converse(over: transport, with: server)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    private func converse(over transport: TransportKind, with server: TestServer) async throws {
        var request = URLRequest(url: server.url("/duplex-echo"))
        request.httpMethod = "POST"
        let conversation = DuplexConversation(rounds: 5)
        let streaming = transport.streaming
        switch transport {
        case .curl:
            let transcript = try await awaitWithin { [request] in try await conversation.hold(over: streaming, request: request) }
            #expect(transcript.head.statusCode == 200)
            #expect(transcript.afterEachRound == (0..<5).map { conversation.sent(through: $0) })
            #expect(transcript.whole == conversation.sent(through: 4))
        case .urlSession:
            let refusal = RequestError.unsupportedOption(
                "read the response while a duplex body (RequestBody.duplex) is still being sent",
                transport: "URLSessionTransport", supportedBy: "CurlTransport"
            )
            await #expect(throws: refusal) {
                try await awaitWithin { [request] in try await conversation.hold(over: streaming, request: request) }
            }
            #expect(server.acceptedConnectionCount == 0)
        }
    }

    @Test(arguments: TransportKind.configured)
    func theCapabilitySaysWhichEngineStreamsDuplex(_ transport: TransportKind) async throws {
        let engine = try transport.makeTransport()
        let capabilities = engine.capabilities
        await engine.shutdown()
        #expect(capabilities.streamsDuplex == (transport == .curl))
    }
}
