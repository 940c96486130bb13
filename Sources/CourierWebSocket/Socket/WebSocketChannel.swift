#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// An open WebSocket connection as an engine gives it to ``WebSocket``: the framing, the
/// socket and its limits are the engine's; reading ahead, pings and the close are shared.
///
/// ``WebSocket`` calls ``receive()`` from one task at a time, and the other calls from any.
/// Errors are `URLError`s with the engine's words, which ``WebSocket`` describes for the
/// handshake's request.
package protocol WebSocketChannel: Sendable {
    /// The subprotocol the server chose, nil when it chose none.
    var subprotocol: String? { get }
    /// Where the socket's reading runs best: the engine's own thread, when it has one, saves a
    /// hop per message. Nil for the global executor.
    var executor: (any TaskExecutor)? { get }
    /// The next message, pong or close. After the close handshake, or after a failure, it ends
    /// the same way again.
    func receive() async throws -> WebSocketEvent
    func send(_ message: WebSocket.Message) async throws
    /// Sends a ping. Answers false when its pong comes through ``receive()``; true when the
    /// engine reports pongs itself and this returned once it came (URLSession's way).
    func ping(_ payload: [UInt8]) async throws -> Bool
    /// Sends a close frame, unless one went already; ``receive()`` then reads until the
    /// server's close and ends with it, or fails when the close timeout passes first.
    func beginClose(_ code: WebSocket.CloseCode, reason: String) async throws
    /// Ends the connection now, without a close handshake; a ``receive()`` waiting fails.
    func abort()
}

/// What ``WebSocketChannel/receive()`` hands back.
package enum WebSocketEvent: Sendable, Equatable {
    case message(WebSocket.Message)
    /// A pong: the answer to a ping, or one the server sent unasked.
    case pong([UInt8])
    /// The close handshake completed: the server's code and reason.
    case closed(WebSocket.CloseCode, reason: String)
}
