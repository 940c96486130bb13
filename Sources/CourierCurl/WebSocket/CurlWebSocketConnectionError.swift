/// Why a WebSocket connection over libcurl failed where neither the handshake's check
/// (``WebSocketHandshakeError``) nor the framing (``WebSocketError``) has a say: the URL, the
/// head of the server's answer, or the event loop.
enum CurlWebSocketConnectionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The URL's scheme is none of ws, wss, http and https, or it has no host.
    case unsupportedURL(String)
    /// The server ended the connection before the end of its answer's head.
    case connectionEndedDuringHandshake
    /// The head of the server's answer passed the limit (in bytes) without ending.
    case responseHeadTooLarge(limit: Int)
    /// The head of the server's answer did not come whole in time.
    case handshakeTimedOut
    /// The first line of the server's answer is not an HTTP/1.1 status line.
    case malformedStatusLine(String)
    /// The transport's event loop is shut down, so nothing waits for the socket any more.
    case eventLoopUnavailable
    /// A second `receive()` while one waits: one reader at a time.
    case receiveInProgress
    case idleTimedOut(Duration)

    var description: String {
        switch self {
        case .unsupportedURL(let url):
            "\(url) is not a WebSocket URL (ws, wss, http or https, with a host)"
        case .connectionEndedDuringHandshake:
            "the server ended the connection before it answered the WebSocket upgrade"
        case .responseHeadTooLarge(let limit):
            "the server's answer to the WebSocket upgrade has a head of more than \(limit) bytes"
        case .handshakeTimedOut:
            "the server did not answer the WebSocket upgrade in time"
        case .malformedStatusLine(let line):
            "the server answered the WebSocket upgrade with \"\(line)\", not an HTTP/1.1 status line"
        case .eventLoopUnavailable:
            "the transport's event loop is shut down"
        case .receiveInProgress:
            "another receive() already waits on this WebSocket"
        case .idleTimedOut(let timeout):
            "the server sent nothing for \((Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18).formattedSeconds); the client closed with 1001 (going away)"
        }
    }
}
