#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The transport written directly on libcurl's multi interface.
///
/// It answers as URLSession answers — same status, headers, body, final URL and `URLError`
/// codes — with safer defaults (see ``Configuration``) and its own threads doing all libcurl
/// work: half the cores by default, or ``Configuration-swift.struct/eventLoopCount``. Its engine does one exchange; redirects, the total deadline, retries, response
/// validation and error descriptions are the shared ``/Courier/Policies`` layers over it, the
/// same ones `URLSessionTransport` uses.
///
/// ```swift
/// let transport = try CurlTransport()
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, transport: transport)
/// ```
///
/// A streamed body's memory stays bounded whatever its size: once
/// ``Configuration-swift.struct/streamBufferSize`` bytes wait unread, libcurl pauses the transfer
/// (`curl_easy_pause`) until the reader catches up. A request body given as a stream is read as
/// libcurl sends it, without blocking the transport's thread, and goes out chunked unless the
/// request sets its own `Content-Length`; it cannot be sent twice, so a 307 or 308 fails with
/// `URLError(.requestBodyStreamExhausted)`. Trailer fields are in
/// ``/Courier/ResponseBody/trailerFields`` once a body has been read to its end, and the head's
/// metrics are what libcurl measured.
///
/// Create one transport and share it: each owns its connection pools and threads. Requests
/// still running when it is shut down (or released) fail with a ``CurlError`` of kind
/// ``CurlError/Kind/shutDown``.
public final class CurlTransport: HTTPTransport {
    /// The settings this transport was created with.
    public var configuration: Configuration { core.configuration }
    let core: CurlEngine
    /// The engine with the configuration's policies over it, built once.
    public let engine: TransportEngine

    /// Starts a transport: initialises libcurl once per process, creates the multi handle and
    /// thread of each event loop.
    ///
    /// - Throws: ``CurlError`` when libcurl cannot be initialised or refuses a setting, or a
    ///   setting is out of its range.
    public init(configuration: Configuration = Configuration()) throws(CurlError) {
        let core = try CurlEngine(configuration: configuration)
        self.core = core
        engine = core.engine.applying(configuration.policies)
    }

    deinit {
        core.loops.shutDown()
    }

    /// The configuration's policies.
    public var policies: Policies { configuration.policies }

    /// libcurl pauses a transfer for a slow reader, stops decoding at the limit and returns
    /// trailers; it connects through proxies and Unix sockets, overrides DNS, chooses the HTTP
    /// version, takes a TLS identity, and hands over the response while a duplex body is still
    /// being sent. It speaks HTTP/3 where the libcurl it runs on was built with it.
    public var capabilities: TransportCapabilities {
        TransportCapabilities(
            pausesForSlowReaders: true, stopsDecodingAtTheLimit: true, returnsTrailers: true,
            connectsThroughProxies: true, connectsOverUnixSockets: true, overridesDNS: true,
            choosesHTTPVersion: true, configuresTLSIdentity: true, streamsDuplex: true,
            speaksHTTP3: Curl.features.http3
        )
    }

    /// Fails every request still running with a ``CurlError`` of kind ``CurlError/Kind/shutDown``,
    /// refuses new ones with the same error, and releases the threads, connections and handles; returns once all
    /// of it is released. Releasing the last reference to a transport does the same without
    /// waiting.
    public func shutdown() async {
        core.loops.shutDown()
        await core.loops.awaitTermination()
        core.loops.altSvcFile?.removePrivateFile()
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
    /// shut down, jobs run on the global concurrent executor. With several event loops
    /// (``Configuration-swift.struct/eventLoopCount``) it is the first loop's thread, and
    /// requests placed on the other loops hop as by default.
    public var executor: any TaskExecutor { core.loops.first }

    /// The engine's two calls with no policy over them, for tests.
    package var bareEngine: TransportEngine { core.engine }

    /// Whether the caller runs on one of this transport's threads, for tests.
    var isOnTransportThread: Bool { core.loops.isCurrentThread }

    /// Counts from the curl threads, added up, for tests.
    var statistics: CurlEventLoop.Statistics { core.loops.statistics }

    /// Each event loop's counts, in the group's order, for tests.
    var statisticsPerLoop: [CurlEventLoop.Statistics] { core.loops.loops.map(\.statistics) }

    /// The file the Alt-Svc cache is kept in, an in-memory one's private file included, for tests.
    var altSvcCacheFilePath: String? { core.loops.altSvcFile?.path }

    /// Hosts with requests in flight on several event loops, for tests: 0 once all have ended.
    var hostsInFlightOnSeveralLoops: Int { core.loops.countedHosts }

    /// The same counts for tools of this package (scripts/storms), which cannot see the
    /// event loop's own type.
    package var handleCounts: (running: Int, pausedByBackPressure: Int, liveHandles: Int, idleHandles: Int, violations: Int) {
        let counts = core.loops.statistics
        return (counts.running, counts.pausedByBackPressure, counts.liveHandles, counts.idleHandles, counts.violations)
    }

    /// Returns once ``shutdown()`` has released everything, for tests.
    func awaitTermination() async {
        await core.loops.awaitTermination()
    }
}

extension CurlTransport {
    /// The version of the libcurl this process links, e.g. `8.5.0`, for `courier --version`.
    package static var libcurlVersion: String { Curl.version }
}
