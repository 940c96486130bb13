import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// An in-process HTTP/1.1 server with httpbin-like routes, for testing HTTP clients.
///
/// ```swift
/// let server = try await TestServer.start()
/// // GET server.url("/get?a=1") with the client under test, then:
/// #expect(server.lastRequest?.path == "/get")
/// #expect(server.acceptedConnectionCount == 1)
/// try await server.shutdown()
/// ```
///
/// It listens on 127.0.0.1 and a port the system picks, so tests can run in parallel, and it
/// keeps connections alive so tests can count reuse with ``acceptedConnectionCount`` (unless
/// started with `closeEveryConnection: true`).
///
/// ## Routes
/// - `/get`, `/anything`, `/anything/…` (any method): 200 with an ``Echo`` as JSON.
/// - `/headers`: `{"headers": [HTTPHeaderField]}`.
/// - `/status/{code}`: that status, empty body; 3xx redirects point at `/get`, 401 carries a
///   `Basic` challenge. Codes outside 200...599 give 400.
/// - `/bytes/{n}`, `/stream-bytes/{n}?chunk_size=k`: `n` bytes of
///   ``deterministicBytes(count:seed:)`` (optional `seed=` query), with `Content-Length` or
///   chunked (default 10 KiB chunks). At most 100 MiB.
/// - `/zeros/{n}`: `n` zero bytes with `Content-Length`, up to 64 GiB, written as the socket
///   drains: any size costs the server the same memory.
/// - `/sink` (any method): the request body is counted and dropped as it arrives, whatever its
///   size (no 413), and the answer is `{"bytes": n}`; it is recorded with an empty body.
/// - `/duplex-echo` (any method, HTTP/1.1): 200 with a chunked body at once, then each piece of
///   the request body written back as it arrives, ending when the request does; for clients
///   that read the response while still sending. Recorded with an empty body.
/// - `/gzip`, `/deflate`: an ``Echo`` compressed, with `Content-Encoding`.
/// - `/redirect/{n}`, `/relative-redirect/{n}`, `/absolute-redirect/{n}`: chains of 302s ending at
///   `/get`. `/redirect-to?url=U&status_code=S`: `Location: U` with status S (default 302), and a
///   `Set-Cookie` for each `set_cookie=` value, sent as given. For a cross-origin hop, `U` is
///   another server's `/headers` or `/cookies`, whose ``lastRequest`` shows what arrived.
/// - `/response-headers?k=v…`: each pair as a response header, and as a JSON array of
///   ``HTTPHeaderField``.
/// - `/delay/{seconds}`: an ``Echo`` after up to 30 seconds, without blocking other requests.
/// - `/drip/{n}?interval_ms=i`: `Content-Length: n` and the bytes of `/bytes/{n}` one at a
///   time, the first at once and each next after `i` ms (1...60000, default 1000), so the body
///   takes `(n - 1) * i` ms.
/// - `/cookies/set?k=v…`: `Set-Cookie` per pair and a 302 to `/cookies`, which answers
///   `{"cookies": {name: value}}`.
/// - `/basic-auth/{user}/{password}`: 200 `{"authenticated": true, "user": …}` or 401.
/// - `/range/{n}`: `n` bytes with a strong `ETag` and `Last-Modified`, honouring one `Range` and
///   `If-Range` (206, 416); query switches for a weak or no validator, zeros, ignoring the range,
///   a misplaced 206 and a cut after `cut_at` bytes. `/range/changing/{key}/{n}`: a new version
///   on every visit. See `TestServer+RangeRoutes.swift`.
/// - `/cache/{key}`: a counted representation whose `Cache-Control`, `Expires`, validators and
///   `Vary` the query sets, answering a matching precondition with 304. See
///   `TestServer+CacheRoutes.swift`.
/// - `/close`: closes the connection without answering. `/truncate/{n}`: announces `n` bytes,
///   sends `n / 2`, closes.
/// - `/never`: reads the request and never answers, holding the connection open until the
///   client leaves or the server shuts down. `/stall/{n}`: `Content-Length: 2n`, `n` bytes, then
///   silence on an open connection. `/infinite`: a chunked body of zeros that never ends,
///   written only as fast as the socket drains. `/infinite/close-delimited`: the same with
///   neither `Content-Length` nor chunking, a body that would end only with the connection.
/// - `/gzip-bomb/{mib}`: gzip that inflates to `mib` MiB of zeros (1...1024), generated once
///   per size and cached. `/brotli`, `/zstd`: an ``Echo`` with `Content-Encoding: br` / `zstd`.
/// - `/bomb/{encoding}/{mib}`: `Content-Encoding: gzip`, `deflate`, `br` or `zstd` that decodes
///   to `mib` MiB of zeros (1...2097152, 2 TiB), with a `Content-Length`. Any size costs the server the
///   same: about 1 KiB on the wire per MiB for gzip and deflate, 13 bytes for br, 32 for zstd.
/// - `/interim/{codes}`, for example `/interim/100,103`: each code (100...199 but not 101, at
///   most 100) as a 1xx response with no fields, except `103 Early Hints` with
///   `Link: </style.css>; rel=preload; as=style`; then an ``Echo``, on a kept connection. An
///   HTTP/1.0 request gets only the ``Echo``.
/// - `/many-headers/{n}`: `n` distinct headers `X-Header-i: value-i` (at most 100,000).
/// - `/long-header/{kib}`: one header `X-Long` whose value is `kib` KiB of `a` (1...1024).
///   `/long-location/{kib}`: a 302 whose `Location` is `kib` KiB long, `/get?pad=aaa…`.
/// - `/redirect-loop`: a 302 to itself, for ever.
/// - `/flaky/{key}/{failures}`: the first `failures` requests for `key` get `?status=` (default
///   503, with `?retry_after=` as `Retry-After` when given) or, with `?fault=close`, a closed
///   connection; later ones get an ``Echo``. Each answer carries `X-Visit: n`; ``visits(_:)``
///   counts them and ``forgetVisits(_:)`` starts again. The count is the server's, per key,
///   so tests sharing a server use keys of their own.
/// - Hostile replies, written byte for byte past NIO's encoder: each is `HTTP/1.1 200 OK`,
///   `Content-Type: text/plain`, the fields below, `Connection: close`, the body `hello world`,
///   then a close. `/content-length/conflicting`: `Content-Length: 5` and `Content-Length: 11`.
///   `/content-length/repeated`: `Content-Length: 11` twice. `/content-length/list`:
///   `Content-Length: 11, 11`. `/header-value/bare-cr`, `/header-value/bare-lf`,
///   `/header-value/nul`: `X-Bare-CR: before\rafter`, `X-Bare-LF: before\nafter` or
///   `X-NUL: before\0after`, then `Content-Length: 11`.
/// - No valid status line, then a close: `/status-line/ssh-banner` (`SSH-2.0-OpenSSH_9.2\r\n`),
///   `/status-line/http09` (`hello world` and nothing else), `/status-line/non-numeric`
///   (`HTTP/1.1 abc OK`, `Content-Length: 0`, `Connection: close`).
/// - Status lines that clients disagree on, each followed by `Content-Type: text/plain`,
///   `Content-Length: 11`, `Connection: close` and `hello world`, then a close:
///   `/status-line/lowercase-name` (`Http/1.1 200 OK`), `/status-line/no-reason`
///   (`HTTP/1.1 200`, no space after the code) and `/status-line/empty-reason` (`HTTP/1.1 200 `).
/// - Anything else: 404 `{"error": "not found"}`.
///
/// `HEAD` works on every route and gets the headers `GET` would; a raw reply's head is sent as
/// is, and a `/status-line` route sends what it sends to `GET`. Request bodies over 64 MiB
/// get 413, except on `/sink`. Every server must be stopped with ``shutdown()``; one that is merely released
/// closes its sockets in `deinit` as a safety net.
public final class TestServer: Sendable {
    /// The address the server listens on, or the path of its Unix domain socket.
    public let host: String
    /// The port the server listens on, the system-assigned one when started with port 0.
    public let port: Int
    /// `http://host:port`, with no trailing slash.
    public let baseURL: URL

    private let listener: any Channel
    private let state: ServerState

    private init(host: String, port: Int, baseURL: URL, listener: any Channel, state: ServerState) {
        self.host = host
        self.port = port
        self.baseURL = baseURL
        self.listener = listener
        self.state = state
    }

    deinit {
        listener.close(promise: nil)
        for connection in state.shutDown() {
            connection.close(promise: nil)
        }
    }

    /// Starts a server listening on `host`, by default 127.0.0.1 on an ephemeral port (port 0).
    ///
    /// - Parameter closeEveryConnection: Answer every request with `Connection: close` and close
    ///   its connection afterwards, so each request costs a client a new TCP connection.
    /// - Throws: ``TestServerError`` for a port outside `0...65535`, or NIO's error if binding fails.
    public static func start(
        host: String = "127.0.0.1",
        port: Int = 0,
        closeEveryConnection: Bool = false
    ) async throws -> TestServer {
        guard (0...65535).contains(port) else { throw TestServerError.invalidPort(port) }
        let state = ServerState(closesEveryConnection: closeEveryConnection)
        let listener = try await bootstrap(state)
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .bind(host: host, port: port)
            .get()
        guard let boundPort = listener.localAddress?.port, let baseURL = makeBaseURL(host: host, port: boundPort)
        else {
            try? await listener.close()
            throw TestServerError.noLocalAddress
        }
        return TestServer(host: host, port: boundPort, baseURL: baseURL, listener: listener, state: state)
    }

    /// Starts a server listening on the Unix domain socket at `path`, which must not exist
    /// yet; the caller removes the file afterwards. Its ``baseURL`` is `http://localhost`, the host a client
    /// sending over the socket names, and its ``port`` is 0.
    public static func start(unixDomainSocketPath path: String, closeEveryConnection: Bool = false) async throws -> TestServer {
        let state = ServerState(closesEveryConnection: closeEveryConnection)
        let listener = try await bootstrap(state).bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).get()
        guard let baseURL = URL(string: "http://localhost") else {
            try? await listener.close()
            throw TestServerError.noLocalAddress
        }
        return TestServer(host: path, port: 0, baseURL: baseURL, listener: listener, state: state)
    }

    /// The loops every test server's connections run on: more than NIO's singleton, which has
    /// one per core, so that a route generating a large body (a compression bomb, megabytes of
    /// deterministic bytes) on its loop holds up few of the other connections of a test process
    /// that runs hundreds of servers at once. Never shut down, as the singleton is not.
    private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 8)

    private static func bootstrap(_ state: ServerState) -> ServerBootstrap {
        ServerBootstrap(group: Self.eventLoops)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard state.connectionAccepted(channel) else { return channel.close() }
                channel.closeFuture.whenComplete { _ in state.connectionClosed(channel) }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(DuplexEchoHandler(server: state))
                    try channel.pipeline.syncOperations.addHandler(HTTPConnectionHandler(server: state))
                }
            }
    }

    /// The URL of `pathAndQuery` on this server, for example `url("/get?a=1")`.
    ///
    /// The text is appended to ``baseURL`` as is (a missing leading `/` is added). Text that is
    /// not a valid URL, such as one with spaces, is percent-encoded through `URLComponents`
    /// instead; if even that fails the result is ``baseURL``. It never traps.
    public func url(_ pathAndQuery: String) -> URL {
        Self.url(pathAndQuery, on: baseURL)
    }

    /// `pathAndQuery` appended to `baseURL` as ``url(_:)`` describes.
    static func url(_ pathAndQuery: String, on baseURL: URL) -> URL {
        let relative = pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery
        if let url = URL(string: baseURL.absoluteString + relative) {
            return url
        }
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return baseURL }
        let parts = relative.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        components.path = parts.first.map(String.init) ?? "/"
        components.query = parts.count > 1 ? parts.last.map(String.init) : nil
        return components.url ?? baseURL
    }

    /// TCP connections accepted since the server started.
    public var acceptedConnectionCount: Int { state.acceptedConnectionCount }

    /// The last request received in full, head and body; `nil` before the first.
    public var lastRequest: RecordedRequest? { state.lastRequest }

    /// Requests for `key` that `/flaky/{key}/…` has answered.
    public func visits(_ key: String) -> Int { state.visits(key) }

    /// Starts counting requests for `key` again from zero.
    public func forgetVisits(_ key: String) { state.forgetVisits(key) }

    /// Responses whose whole body has been handed to the socket since the server started (a
    /// body a client stopped reading, or whose connection closed first, is not counted). A
    /// client's answer that arrives while this has not moved came before the body's end: the
    /// order of two events, which a busy machine cannot turn around, where a time bound could.
    public var finishedBodyCount: Int { state.finishedBodyCount }

    /// Requests received in full since the server started. A request refused with 413 before
    /// its body arrived is not counted.
    public var requestCount: Int { state.requestCount }

    /// Stops listening and closes every open connection, cancelling any pending `/delay`.
    /// Calling it again does nothing.
    public func shutdown() async throws {
        let connections = state.shutDown()
        try await Self.closeIfOpen(listener)
        for connection in connections {
            try await Self.closeIfOpen(connection)
        }
    }

    /// The bytes `/bytes/{count}` and `/stream-bytes/{count}` send for `seed`: the same count and
    /// seed always give the same bytes, and a shorter result is a prefix of a longer one.
    /// A negative count gives no bytes.
    public static func deterministicBytes(count: Int, seed: UInt64 = 0) -> Data {
        DeterministicBytes.data(count: count, seed: seed)
    }

    private static func closeIfOpen(_ channel: any Channel) async throws {
        do {
            try await channel.close()
        } catch ChannelError.alreadyClosed {
            // Closed by the client, by a route, or by an earlier shutdown.
        }
    }

    static func makeBaseURL(host: String, port: Int) -> URL? {
        var components = URLComponents()
        components.scheme = "http"
        components.host = host.contains(":") ? "[\(host)]" : host
        components.port = port
        return components.url
    }
}
