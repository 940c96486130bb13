#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// A ``Courier/Networking`` transport written directly on libcurl's multi interface.
///
/// It answers as URLSession answers — same status, headers, body, final URL and `URLError`
/// codes — with safer defaults (see ``Configuration``) and one thread per transport doing all
/// libcurl work. Its ``engine`` does one exchange; redirects, the total deadline, response
/// validation and error descriptions are the shared ``Courier/Policies`` layers over it, the
/// same ones `URLSessionTransport` uses.
///
/// ```swift
/// let transport = try CurlTransport()
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, networking: transport.networking)
/// ```
///
/// Create one transport and share it: each owns one connection pool and one thread. Requests
/// still running when it is shut down (or released) fail with ``CurlError/transportShutDown``.
public final class CurlTransport: HTTPTransport {
    /// The settings this transport was created with.
    public var configuration: Configuration { core.configuration }
    private let core: CurlEngine
    /// The engine with the configuration's policy layers over it.
    private let layered: Networking
    private let layeredExchange: HTTPExchange
    /// The streaming engine with the same layers over it.
    private let layeredStreaming: StreamingNetworking

    /// Starts a transport: initialises libcurl once per process, creates the multi handle and
    /// its thread.
    ///
    /// - Throws: ``CurlError`` when libcurl cannot be initialised or refuses a setting.
    public init(configuration: Configuration = Configuration()) throws(CurlError) {
        let core = try CurlEngine(configuration: configuration)
        self.core = core
        // Two stacks of the same layers: over the engine's Foundation answer for Networking
        // callers, whose CurlResponse builds that answer once from its own parse of the head,
        // and over the engine's own head for everything else, which builds none.
        layered = configuration.policies.apply(to: { request in try await core.data(for: request) })
        layeredExchange = configuration.policies.apply(to: { request in try await core.exchange(for: request) })
        layeredStreaming = configuration.policies.apply(to: { request, upload in try await core.stream(for: request, uploading: upload) })
    }

    deinit {
        core.loop.shutDown()
    }

    /// The configuration's policies.
    public var policies: Policies { configuration.policies }

    /// libcurl pauses a transfer for a slow reader, stops decoding at the limit and returns
    /// trailers; it connects through proxies and Unix sockets, overrides DNS, chooses the HTTP
    /// version and takes a TLS identity.
    public var capabilities: TransportCapabilities {
        TransportCapabilities(
            pausesForSlowReaders: true, stopsDecodingAtTheLimit: true, returnsTrailers: true,
            connectsThroughProxies: true, connectsOverUnixSockets: true, overridesDNS: true,
            choosesHTTPVersion: true, configuresTLSIdentity: true
        )
    }

    /// This transport as a ``Courier/Networking`` function: the engine with the configuration's
    /// ``Courier/Policies`` layers over it. The function keeps the transport alive.
    public var networking: Networking {
        { [self] request in try await self.data(for: request) }
    }

    /// One exchange and nothing else: every 3xx is returned as it is, and no policy layer runs
    /// but the limits the engine checks while receiving. Compose your own stack over it with
    /// ``Courier/layered(_:_:)`` or ``Courier/Policies/apply(to:)-(Networking)``. The function keeps the
    /// transport alive.
    public var engine: Networking {
        { [self] request in try await self.core.data(for: request) }
    }

    /// This transport as a ``Courier/StreamingNetworking`` function: the streaming engine with
    /// the configuration's ``Courier/Policies`` layers over it (see ``stream(for:uploading:)``).
    /// The function keeps the transport alive.
    public var streaming: StreamingNetworking {
        { [self] request, upload in try await self.stream(for: request, uploading: upload) }
    }

    /// One streamed exchange and nothing else, as ``engine`` is for buffered ones.
    public var streamingEngine: StreamingNetworking {
        { [self] request, upload in try await self.core.stream(for: request, uploading: upload) }
    }

    /// Fails every request still running with ``CurlError/transportShutDown``, refuses new ones
    /// with the same error, and releases the thread, connections and handles; returns once all
    /// of it is released. Releasing the last reference to a transport does the same without
    /// waiting.
    public func shutdown() async {
        core.loop.shutDown()
        await core.loop.awaitTermination()
    }

    /// The transport's thread as a `TaskExecutor`, for the lowest latency per request.
    ///
    /// By default a request hops twice: from the awaiting task's thread to the curl thread, and
    /// back when the continuation resumes (two thread wake-ups, tens of microseconds each on a
    /// small machine). A task that prefers this executor runs on the curl thread itself, so
    /// neither hop happens:
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(transport.executor) {
    ///     for url in urls { _ = try await transport.data(for: URLRequest(url: url)) }
    /// }
    /// ```
    ///
    /// Everything such a task does between its requests delays every transfer of this
    /// transport, so keep that work small; with many requests in flight the default (responses
    /// built on the global executor's threads, in parallel) is faster. Once the transport is
    /// shut down, jobs run on the global concurrent executor.
    public var executor: any TaskExecutor { core.loop }

    /// Whether the caller runs on this transport's thread, for tests.
    var isOnTransportThread: Bool { core.loop.isCurrentThread }

    /// Counts from the curl thread, for tests.
    var statistics: CurlEventLoop.Statistics { core.loop.statistics }

    /// The same counts for tools of this package (scripts/storms), which cannot see the
    /// event loop's own type.
    package var handleCounts: (running: Int, pausedByBackPressure: Int, liveHandles: Int, idleHandles: Int, violations: Int) {
        let counts = core.loop.statistics
        return (counts.running, counts.pausedByBackPressure, counts.liveHandles, counts.idleHandles, counts.violations)
    }

    /// Returns once ``shutdown()`` has released everything, for tests.
    func awaitTermination() async {
        await core.loop.awaitTermination()
    }

    /// Sends `request` through the configuration's policy layers (redirects followed, response
    /// validated, errors described) and returns the final response's body and `HTTPURLResponse`.
    ///
    /// The body is `httpBody` or `httpBodyStream`. A stream is read as libcurl sends it, on the
    /// transport's thread, and goes out chunked unless the request sets its own
    /// `Content-Length`; it cannot be sent twice, so a 307 or 308 fails with
    /// `URLError(.requestBodyStreamExhausted)`.
    ///
    /// - Throws: ``Courier/RequestError`` for a request that must not be sent (control
    ///   characters in a header, a method that is not a token); `URLError` for failures on the
    ///   wire, with URLSession's code, a readable description and the ``CurlError`` as
    ///   underlying error; `URLError(.cancelled)` when the task is cancelled; ``CurlError`` when
    ///   the transport is shut down.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await layered(request)
    }

    /// This transport as an `HTTPExchange`: sends a request through the policy layers and
    /// returns the body with Courier's own `ResponseHead`, which carries the HTTP version and
    /// the exchange's metrics; no Foundation response is built. `APIClient(baseURL:exchange:)`
    /// runs on it.
    ///
    /// ```swift
    /// let (data, head) = try await transport.exchange(request)
    /// ```
    public var exchange: HTTPExchange {
        { [self] request in try await self.layeredExchange(request) }
    }

    /// Sends `request` through the configuration's policy layers, as ``data(for:)`` does, and
    /// returns the final response's head as soon as it arrives, with its body to read as it
    /// comes.
    ///
    /// Memory stays bounded whatever the body's size: once
    /// ``Configuration-swift.struct/streamBufferSize`` bytes wait unread, libcurl pauses the
    /// transfer (`curl_easy_pause`) until the reader catches up. No
    /// ``Courier/Policies/maximumResponseBytes`` applies: the reader decides how much it keeps.
    /// `upload`, when given, is the request body, read as libcurl sends it without blocking the
    /// transport's thread; otherwise `httpBody` or `httpBodyStream` is sent.
    ///
    /// Cancelling the task before the head arrives, or cancelling the reading task or dropping
    /// the body before its end, stops the transfer and frees its connection. Trailer fields are
    /// in ``Courier/ResponseBody/trailerFields`` once the body has been read to its end.
    ///
    /// The head's ``Courier/ResponseHead/metrics`` hold what libcurl measured up to the first
    /// byte; the body's ``Courier/ResponseBody/metrics`` hold the whole exchange's, read from
    /// libcurl when the transfer ended.
    public func stream(for request: URLRequest, uploading upload: UploadBody? = nil) async throws -> (ResponseBody, ResponseHead) {
        try await layeredStreaming(request, upload)
    }

    /// One exchange, as ``engine`` sends it, without building Foundation's `HTTPURLResponse`
    /// (see ``CurlResponse``): for less CPU and memory per request where no policy layer is
    /// needed. A 3xx is returned as it is.
    public func response(for request: URLRequest) async throws -> CurlResponse {
        try await core.response(for: request)
    }
}

extension CurlTransport {
    /// The version of the libcurl this process links, e.g. `8.5.0`, for `courier --version`.
    package static var libcurlVersion: String { Curl.version }
}
