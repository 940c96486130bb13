#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension URLSessionTransport: WebSocketEngine {
    /// `URLSessionWebSocketTask`, where this process's Foundation has WebSockets; refuses,
    /// naming `CurlTransport`, where it has none and for the options the task does not offer.
    package func webSocketHandshake(for options: WebSocket.Options) async throws -> WebSocketHandshake {
        if options.compression != nil { throw Self.webSocketRefusal("offer permessage-deflate on a WebSocket") }
        if options.idleTimeout != nil { throw Self.webSocketRefusal("time a WebSocket out when it is idle") }
        if options.closeTimeout != WebSocket.Options().closeTimeout { throw Self.webSocketRefusal("bound a WebSocket's close handshake") }
        guard await FoundationWebSocketSupport.isAvailable else {
            throw Self.webSocketRefusal("open a WebSocket: this process's Foundation has no WebSockets (FoundationNetworking decides that when it is built)")
        }
        let configuration = configuration
        let sessionConfiguration = session.configuration
        return { request, options in
            let request = try Self.prepared(request, uploading: nil, configuration: configuration)
            return try await URLSessionWebSocketChannel.open(request, options: options, configuration: sessionConfiguration)
        }
    }

    private static func webSocketRefusal(_ option: String) -> RequestError {
        .unsupportedOption(option, transport: "URLSessionTransport", supportedBy: "CurlTransport")
    }
}
