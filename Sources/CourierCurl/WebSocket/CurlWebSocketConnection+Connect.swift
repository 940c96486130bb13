#if os(Linux)
import Courier
import Foundation

extension CurlWebSocketConnection {
    /// The most bytes the head of the server's answer may have.
    static let maximumResponseHeadLength = 16 * 1024

    /// Opens a WebSocket to `url` (ws, wss, or their http and https forms): libcurl connects with
    /// the transport's TLS, proxy and DNS settings over HTTP/1.1 (through a CONNECT tunnel when
    /// there is a proxy), driven by `loop` like its transfers, then the client sends the upgrade
    /// request and checks the 101.
    ///
    /// With `deflate`, the client offers permessage-deflate (RFC 7692) with those settings, and
    /// compresses when the server accepts (``deflate``); a server that declines gets messages
    /// uncompressed.
    ///
    /// Throws a `CurlError` when the connection could not be made, `URLError(.cancelled)` when
    /// the task was cancelled while it was being made, a ``WebSocketHandshakeError`` when the
    /// server's answer is not a WebSocket one, a ``CurlWebSocketConnectionError`` when it is not
    /// HTTP, or was too long or too late in coming, or when `loop` is shut down.
    static func connect(
        to url: URL, protocols: [String] = [], deflate: WebSocketDeflateSettings? = nil,
        configuration: CurlTransport.Configuration, loop: CurlEventLoop,
        maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength,
        connectTimeout: Duration = .seconds(60), handshakeTimeout: Duration = .seconds(60), closeTimeout: Duration = .seconds(5)
    ) async throws -> CurlWebSocketConnection {
        let answer = try await open(
            to: url, protocols: protocols, deflate: deflate, configuration: configuration, loop: loop,
            maximumMessageLength: maximumMessageLength, connectTimeout: connectTimeout, handshakeTimeout: handshakeTimeout,
            closeTimeout: closeTimeout)
        switch answer {
        case .upgraded(let connection, _): return connection
        case .answered(let statusCode, _): throw WebSocketHandshakeError.notSwitchingProtocols(statusCode: statusCode)
        }
    }

    /// How the server answered the upgrade request.
    enum Answer {
        /// A valid 101: the open connection, and the head's bytes.
        case upgraded(CurlWebSocketConnection, head: [UInt8])
        /// Another status; the connection is closed. The head's bytes, for the policies to read.
        case answered(statusCode: Int, head: [UInt8])
    }

    /// ``connect(to:protocols:deflate:configuration:loop:maximumMessageLength:connectTimeout:handshakeTimeout:closeTimeout:)``,
    /// sending `headerFields` too, and answering any status rather than failing on one other
    /// than 101.
    static func open(
        to url: URL, headerFields: [HeaderField] = [], protocols: [String] = [], deflate: WebSocketDeflateSettings? = nil,
        configuration: CurlTransport.Configuration, loop: CurlEventLoop, maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength,
        connectTimeout: Duration = .seconds(60), handshakeTimeout: Duration = .seconds(60), closeTimeout: Duration = .seconds(5),
        idleTimeout: Duration? = nil, unixSocketPath: String? = nil
    ) async throws -> Answer {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let host = components.host, !host.isEmpty
        else { throw CurlWebSocketConnectionError.unsupportedURL(url.absoluteString) }
        switch components.scheme?.lowercased() {
        case "ws", "http": components.scheme = "http"
        case "wss", "https": components.scheme = "https"
        default: throw CurlWebSocketConnectionError.unsupportedURL(url.absoluteString)
        }
        // libcurl 7.88 knows no ws scheme; the connection it opens is the same as for http(s).
        guard let wireURL = components.url?.absoluteString
        else { throw CurlWebSocketConnectionError.unsupportedURL(url.absoluteString) }
        var generator = SystemRandomNumberGenerator()
        let key = WebSocketHandshake.makeKey(using: &generator)
        let request = try upgradeRequest(components, key: key, protocols: protocols, deflate: deflate, headerFields: headerFields)

        let handle = try CurlEasyHandle(configuration: configuration)
        let easy = handle.pointer
        try Curl.set(easy, .url, wireURL)
        try Curl.set(easy, .connectOnly, 1)
        if let unixSocketPath { try Curl.set(easy, .unixSocketPath, unixSocketPath) }
        // ALPN then offers http/1.1 only: the Upgrade mechanism does not exist in HTTP/2.
        try Curl.set(easy, .httpVersion, Curl.HTTPVersionValue.http1_1)
        // Through a proxy the bytes must go as they are, so in a tunnel, never as proxied HTTP.
        try Curl.set(easy, .httpProxyTunnel, 1)
        try Curl.set(easy, .connectTimeoutMilliseconds, Int((connectTimeout / .milliseconds(1)).rounded(.up)))
        try Curl.set(easy, .noProgress, 1)
        // The transport's callbacks expect a transfer; there is none here, and the only bytes
        // libcurl delivers are a proxy's answer to CONNECT.
        try Curl.set(easy, .headerFunction, callback: Curl.discardBytes)
        try Curl.set(easy, .writeFunction, callback: Curl.discardBytes)
        let connected: CurlConnectOnlyHandle
        do {
            connected = try await loop.connect(handle, url: url)
        } catch let error as CurlError where error.kind == .shutDown {
            throw CurlWebSocketConnectionError.eventLoopUnavailable
        }

        return try await withTaskExecutorPreference(loop) {
            try await handshake(
                handle: connected, request: request, key: key, protocols: protocols, deflate: deflate, loop: loop,
                maximumMessageLength: maximumMessageLength, deadline: .now + handshakeTimeout, closeTimeout: closeTimeout,
                idleTimeout: idleTimeout)
        }
    }

    /// The upgrade request's bytes. libcurl writes none of it: with CONNECT_ONLY it sends no
    /// request of its own, so `Host` is the client's to write.
    static func upgradeRequest(
        _ components: URLComponents, key: String, protocols: [String], deflate: WebSocketDeflateSettings? = nil,
        headerFields: [HeaderField] = []
    ) throws -> [UInt8] {
        var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { target += "?" + query }
        var host = components.percentEncodedHost ?? ""
        if host.contains(":"), !host.hasPrefix("[") { host = "[\(host)]" }
        if let port = components.port, port != (components.scheme == "https" ? 443 : 80) { host += ":\(port)" }
        var head = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for field in try WebSocketHandshake.requestHeaderFields(key: key, protocols: protocols, deflate: deflate) + headerFields {
            head += "\(field.name): \(field.value)\r\n"
        }
        return Array((head + "\r\n").utf8)
    }

    /// Sends the upgrade request, reads the head of the answer, and checks it.
    private static func handshake(
        handle: CurlConnectOnlyHandle, request: [UInt8], key: String, protocols: [String], deflate: WebSocketDeflateSettings?,
        loop: CurlEventLoop, maximumMessageLength: Int, deadline: ContinuousClock.Instant, closeTimeout: Duration,
        idleTimeout: Duration?
    ) async throws -> Answer {
        guard loop.isCurrentThread else { throw CurlWebSocketConnectionError.eventLoopUnavailable }
        let easy = handle.pointer
        guard let socket = Curl.activeSocket(easy) else { throw CurlWebSocketConnectionError.connectionEndedDuringHandshake }
        func wait(writing: Bool) async throws {
            // The loop runs one job at a time: a cancellation either came before this check,
            // or its handler's job runs once the wait below is registered, and ends it.
            if Task.isCancelled { throw CancellationError() }
            let readiness = await withTaskCancellationHandler {
                await loop.waitUntilReady(socket, writing: writing, deadline: deadline)
            } onCancel: {
                Task(executorPreference: loop) { loop.endWaits(on: socket) }
            }
            if Task.isCancelled { throw CancellationError() }
            switch readiness {
            case .ready: return
            case .timedOut: throw CurlWebSocketConnectionError.handshakeTimedOut
            case .unavailable: throw CurlWebSocketConnectionError.eventLoopUnavailable
            }
        }

        var offset = 0
        while offset < request.count {
            let sent = try request.withUnsafeBytes { buffer in try Curl.send(easy, UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            if let sent { offset += sent } else { try await wait(writing: true) }
        }

        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while headEnd == nil {
            let count = try chunk.withUnsafeMutableBytes { buffer in try Curl.receive(easy, into: buffer) }
            guard let count else {
                try await wait(writing: false)
                continue
            }
            guard count > 0 else { throw CurlWebSocketConnectionError.connectionEndedDuringHandshake }
            let searchFrom = max(0, received.count - 3)
            received += chunk[..<count]
            headEnd = received[searchFrom...].firstRange(of: terminator)?.upperBound
            if headEnd == nil, received.count > maximumResponseHeadLength {
                throw CurlWebSocketConnectionError.responseHeadTooLarge(limit: maximumResponseHeadLength)
            }
        }
        let end = headEnd ?? received.count
        let head = Array(received[..<end])
        let status = try statusCode(of: head)
        // Any other answer is the policies' to read (a 401 to refresh on, cookies to keep);
        // the connection goes with the handle.
        guard status == 101 else { return .answered(statusCode: status, head: head) }
        let agreement = try WebSocketHandshake.checkResponse(
            statusCode: status, headerFields: HeaderFields(headBlock: head), key: key, protocols: protocols, deflate: deflate)
        let connection = CurlWebSocketConnection(
            handle: handle, socket: socket, loop: loop, subprotocol: agreement.subprotocol, deflate: agreement.deflate,
            bytesAfterHead: received[end...], maximumMessageLength: maximumMessageLength, closeTimeout: closeTimeout,
            idleTimeout: idleTimeout)
        return .upgraded(connection, head: head)
    }

    /// The code of an `HTTP/1.1 NNN reason` status line.
    private static func statusCode(of head: [UInt8]) throws -> Int {
        let line = String(decoding: head.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let code = Int(parts[1]) else {
            throw CurlWebSocketConnectionError.malformedStatusLine(String(line.prefix(200)))
        }
        return code
    }
}
#endif
