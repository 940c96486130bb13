#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// A WebSocket that is closed: thrown by ``WebSocket/messages`` when the server closed with a
/// code other than 1000, 1001 or none (see ``WebSocket/CloseCode/isNormal``), and by
/// ``WebSocket/send(_:)`` and ``WebSocket/ping()`` once either side began the close.
public struct WebSocketCloseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The close code: the server's when it closed first, the client's otherwise.
    public let code: WebSocket.CloseCode
    /// The close reason that came with the code; empty when there was none.
    public let reason: String
    /// Whether the server sent the first close frame.
    public let closedByServer: Bool
    /// The URL of the WebSocket's handshake request.
    public let url: URL?

    package init(code: WebSocket.CloseCode, reason: String, closedByServer: Bool, url: URL?) {
        self.code = code
        self.reason = reason
        self.closedByServer = closedByServer
        self.url = url
    }

    /// "the server closed the WebSocket with 1008 (policy violation): no guests (GET https://…/chat)".
    public var description: String {
        let who = closedByServer ? "the server" : "the client"
        let reasonText = reason.isEmpty ? "" : ": \(reason)"
        return "\(who) closed the WebSocket with \(code)\(reasonText) (GET \(url?.redactedString ?? "no URL"))"
    }
}
