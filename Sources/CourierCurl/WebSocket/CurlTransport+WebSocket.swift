#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import Foundation

extension CurlTransport: WebSocketEngine {
    /// libcurl opens the connection (with the configuration's proxy as a CONNECT tunnel, TLS
    /// identity and pinning, DNS overrides, Unix socket) and Courier speaks RFC 6455 over it,
    /// on the transport's event loop.
    package func webSocketHandshake(for options: WebSocket.Options) async throws -> CourierWebSocket.WebSocketHandshake {
        #if os(Linux)
        let engine = core
        return { request, options in try await engine.webSocketHandshake(request, options) }
        #else
        throw RequestError.unsupportedOption("open a WebSocket", transport: "CurlTransport on this platform", supportedBy: "URLSessionTransport")
        #endif
    }
}

#if os(Linux)
extension CurlEngine {
    /// The fields the handshake writes itself; the request's own of these names are not sent.
    private static let handshakeFieldNames: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
        "sec-websocket-protocol", "content-length", "transfer-encoding",
    ]

    /// One opening handshake: the request's fields, the User-Agent and the subprotocols (the
    /// options' and those of a `Sec-WebSocket-Protocol` field the request sets, as URLSession
    /// reads it) go with the upgrade.
    func webSocketHandshake(_ request: URLRequest, _ options: WebSocket.Options) async throws -> (WebSocketUpgrade, ResponseHead) {
        let target = try request.checkedForSending(uploading: nil, transport: "CurlTransport", sendsOverUnixSockets: true)
        var protocols = options.protocols
        var fields: [HeaderField] = []
        var hasUserAgent = false
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let lowercased = name.lowercased()
            if lowercased == "sec-websocket-protocol" {
                protocols += value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
            guard !Self.handshakeFieldNames.contains(lowercased) else { continue }
            hasUserAgent = hasUserAgent || lowercased == "user-agent"
            fields.append(HeaderField(name: name, value: value))
        }
        if !hasUserAgent {
            fields.append(HeaderField(name: "User-Agent", value: configuration.policies.userAgent ?? DefaultUserAgent.value))
        }
        let url = target.unixSocket?.url ?? target.url
        let loop = loops.place(group: "ws " + (url.host ?? ""), multiplexes: true).loop
        let answer: CurlWebSocketConnection.Answer
        do {
            answer = try await CurlWebSocketConnection.open(
                to: url, headerFields: fields, protocols: protocols, deflate: options.compression.map(WebSocketDeflateSettings.init),
                configuration: configuration, loop: loop,
                maximumMessageLength: options.maximumMessageBytes,
                connectTimeout: .seconds(configuration.policies.connectTimeout ?? configuration.policies.idleTimeout),
                handshakeTimeout: .seconds(request.idleTimeout(under: configuration.policies)),
                closeTimeout: .seconds(options.closeTimeout), idleTimeout: options.idleTimeout.map { .seconds($0) },
                unixSocketPath: target.unixSocket?.socketPath)
        } catch {
            throw CurlWebSocketChannel.urlError(for: error, url: request.url)
        }
        switch answer {
        case .upgraded(let connection, let head):
            let channel = CurlWebSocketChannel(connection, url: request.url)
            return (WebSocketUpgrade(channel), ResponseHead(statusCode: 101, headerFields: HeaderFields(headBlock: head), url: request.url))
        case .answered(let statusCode, let head):
            return (WebSocketUpgrade(nil), ResponseHead(statusCode: statusCode, headerFields: HeaderFields(headBlock: head), url: request.url))
        }
    }
}

extension WebSocketDeflateSettings {
    /// The offer ``WebSocket/Options/compression`` asks for.
    init(_ compression: WebSocket.Compression) {
        self.init(
            clientNoContextTakeover: !compression.clientContextTakeover, serverNoContextTakeover: !compression.serverContextTakeover,
            clientMaxWindowBits: compression.clientMaxWindowBits, serverMaxWindowBits: compression.serverMaxWindowBits)
    }
}
#endif
