#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension HTTPTransport {
    /// Opens a WebSocket: sends `request` as the opening handshake (RFC 6455 §4) through the
    /// transport's ``/Courier/Policies``, and answers with the open socket once the server
    /// switched protocols.
    ///
    /// `CurlTransport` opens WebSockets on every libcurl from 7.76: libcurl opens the connection
    /// (with the configuration's proxy as a CONNECT tunnel, TLS identity and pinning, DNS
    /// overrides, Unix socket) and Courier speaks RFC 6455 over it, on the transport's event
    /// loop. `URLSessionTransport` opens them with `URLSessionWebSocketTask` where this
    /// process's Foundation has WebSockets, asked of Foundation at run time; where it has none,
    /// as on Linux toolchains whose FoundationNetworking was built without them, it refuses
    /// naming `CurlTransport`, with nothing sent. So does it for
    /// ``WebSocket/Options/compression``, ``WebSocket/Options/idleTimeout`` and a
    /// ``WebSocket/Options/closeTimeout`` other than 5 s, which `URLSessionWebSocketTask` does
    /// not offer. A transport of your own has no WebSockets and refuses the same way.
    ///
    /// - Throws: `RequestError` for a request that must not be sent, or when the engine has
    ///   no WebSockets (`unsupportedOption`, before anything is sent); `URLError` for failures
    ///   on the wire, `.badServerResponse` when the server answered anything but a valid 101 (a
    ///   redirect included, which is not followed).
    public func webSocket(for request: URLRequest, options: WebSocket.Options = WebSocket.Options()) async throws -> WebSocket {
        guard let engine = self as? any WebSocketEngine else {
            throw RequestError.unsupportedOption(
                "open a WebSocket", transport: String(describing: type(of: self)), supportedBy: "CurlTransport")
        }
        let handshake = try await engine.webSocketHandshake(for: options)
        return try await WebSocket.open(request, options: options, policies: policies, handshake: handshake)
    }
}
