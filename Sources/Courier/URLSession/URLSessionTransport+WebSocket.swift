#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Opens a WebSocket with `URLSessionWebSocketTask` where this process's Foundation has
    /// WebSockets, asked of Foundation at run time; where
    /// it has none, as on Linux toolchains whose FoundationNetworking was built without them,
    /// refuses with ``RequestError/unsupportedOption(_:transport:supportedBy:)`` naming
    /// `CurlTransport`, with nothing sent. So are ``WebSocket/Options/compression``,
    /// ``WebSocket/Options/idleTimeout`` and a ``WebSocket/Options/closeTimeout`` other than 5 s,
    /// which `URLSessionWebSocketTask` does not offer.
    public func webSocket(for request: URLRequest, options: WebSocket.Options) async throws -> WebSocket {
        if options.compression != nil { throw Self.webSocketRefusal("offer permessage-deflate on a WebSocket") }
        if options.idleTimeout != nil { throw Self.webSocketRefusal("time a WebSocket out when it is idle") }
        if options.closeTimeout != WebSocket.Options().closeTimeout { throw Self.webSocketRefusal("bound a WebSocket's close handshake") }
        guard await FoundationWebSocketSupport.isAvailable else {
            throw Self.webSocketRefusal("open a WebSocket: this process's Foundation has no WebSockets (FoundationNetworking decides that when it is built)")
        }
        let configuration = configuration
        let sessionConfiguration = session.configuration
        return try await WebSocket.open(request, options: options, policies: policies) { request, options in
            let request = try Self.prepared(request, uploading: nil, configuration: configuration)
            return try await URLSessionWebSocketChannel.open(request, options: options, configuration: sessionConfiguration)
        }
    }

    private static func webSocketRefusal(_ option: String) -> RequestError {
        .unsupportedOption(option, transport: "URLSessionTransport", supportedBy: "CurlTransport")
    }
}
