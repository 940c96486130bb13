#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 7, close handling: the server's close is answered with a close
/// carrying its code, and `messages` ends normally for 1000, 1001 and no code, with a
/// ``WebSocketCloseError`` for any other; a close frame that breaks RFC 6455 §5.5.1 or §7.4
/// (one byte, a code never sent, a reason too long) fails with 1002; nothing the server sends
/// after its close is read or answered. The client's own close waits for the server's answer,
/// bounded by ``WebSocket/Options/closeTimeout``.
@Suite(.timeLimit(.minutes(1))) struct CloseConformanceTests {
    /// The server answers the client's close with a code of its own: the socket reports the
    /// server's code, and what can no longer be done fails with the client's close, its code and
    /// reason, since the client closed first.
    @Test func aCloseAnsweredWithAnotherCodeStaysTheClients() async throws {
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        var reading = Reading()
        let record = try await conformanceCase(
            [.awaitClose, .send([.close(1001, "server going away")]), .endConnection], answersClose: false
        ) { socket, _ in
            try await socket.close(WebSocket.CloseCode(rawValue: 4001), reason: "client done")
            closeCode = socket.closeCode
            closeReason = socket.closeReason
            let clients = WebSocketCloseError(
                code: WebSocket.CloseCode(rawValue: 4001), reason: "client done", closedByServer: false, url: socket.url)
            await #expect(throws: clients) { try await socket.send(.string("after the close")) }
            await #expect(throws: clients) { try await socket.ping() }
            reading = await socket.readToEnd()
        }
        #expect(closeCode == .goingAway)
        #expect(closeReason == "server going away")
        #expect(reading.ending == .normal)
        #expect(record.closeCode == 4001)
    }
}
#endif
