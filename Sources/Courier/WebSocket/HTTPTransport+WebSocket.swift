#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension HTTPTransport {
    /// Opens a WebSocket with the default ``WebSocket/Options``; see
    /// ``HTTPTransport/webSocket(for:options:)``.
    ///
    /// - Throws: ``RequestError`` for a request that must not be sent, or when the engine has
    ///   no WebSockets; `URLError` for failures on the wire, `.badServerResponse` when the
    ///   server answered anything but a valid 101 (a redirect included, which is not followed).
    public func webSocket(for request: URLRequest) async throws -> WebSocket {
        try await webSocket(for: request, options: WebSocket.Options())
    }

    /// Refuses: an engine without WebSockets.
    public func webSocket(for request: URLRequest, options: WebSocket.Options) async throws -> WebSocket {
        throw RequestError.unsupportedOption(
            "open a WebSocket", transport: String(describing: type(of: self)), supportedBy: "CurlTransport")
    }
}
