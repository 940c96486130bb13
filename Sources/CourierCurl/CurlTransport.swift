#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization

/// A ``Courier/Networking`` transport written directly on libcurl's multi interface.
///
/// It answers as URLSession answers — same status, headers, body, final URL and `URLError`
/// codes — with safer defaults (see ``Configuration``) and one thread per transport doing all
/// libcurl work.
///
/// ```swift
/// let transport = try CurlTransport()
/// let client = APIClient(networking: transport.networking)
/// ```
///
/// Create one transport and share it: each owns one connection pool and one thread. Requests
/// still running when it is shut down (or released) fail with ``CurlError/transportShutDown``.
public final class CurlTransport: Sendable {
    /// The settings this transport was created with.
    public let configuration: Configuration
    private let loop: CurlEventLoop
    private let redirectPolicy: CurlRedirectPolicy
    private let nextTransferID = Atomic<UInt64>(0)
    /// Recycled buffers for large bodies (see ``CurlBodyBufferPool``): enough idle memory for a
    /// full set of connections to one host to receive 1 MiB bodies twice over.
    private let bodyPool: CurlBodyBufferPool
    /// Header lists by header set: most apps send a handful of distinct sets.
    private let headerLists = CurlHeaderListCache(capacity: 64)

    /// Starts a transport: initialises libcurl once per process, creates the multi handle and
    /// its thread.
    ///
    /// - Throws: ``CurlError`` when libcurl cannot be initialised or refuses a setting.
    public init(configuration: Configuration = Configuration()) throws(CurlError) {
        self.configuration = configuration
        redirectPolicy = CurlRedirectPolicy(configuration: configuration)
        bodyPool = CurlBodyBufferPool(maximumIdleBytes: max(1, configuration.maximumConnectionsPerHost) * 2 * 1024 * 1024)
        loop = try CurlEventLoop(configuration: configuration)
    }

    deinit {
        loop.shutDown()
    }

    /// This transport as a ``Courier/Networking`` function. The function keeps the transport
    /// alive.
    public var networking: Networking {
        { [self] request in try await self.data(for: request) }
    }

    /// Fails every request still running with ``CurlError/transportShutDown``, refuses new ones
    /// with the same error, and releases the thread, connections and handles. Returns at once;
    /// the release finishes on the transport's thread moments later.
    public func shutdown() {
        loop.shutDown()
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
    public var executor: any TaskExecutor { loop }

    /// Whether the caller runs on this transport's thread, for tests.
    var isOnTransportThread: Bool { loop.isCurrentThread }

    /// Counts from the curl thread, for tests.
    var statistics: CurlEventLoop.Statistics { loop.statistics }

    /// Returns once ``shutdown()`` has released everything, for tests.
    func awaitTermination() async {
        await loop.awaitTermination()
    }

    /// Sends `request`, following redirects, and returns the final response's body and
    /// `HTTPURLResponse`.
    ///
    /// The body is `httpBody` or `httpBodyStream`. A stream is read as libcurl sends it, on the
    /// transport's thread, and goes out chunked unless the request sets its own
    /// `Content-Length`; it cannot be sent twice, so a 307 or 308 fails with
    /// `URLError(.requestBodyStreamExhausted)`.
    ///
    /// - Throws: ``Courier/RequestError`` for a request that must not be sent (control
    ///   characters in a header, a method that is not a token); `URLError` for failures on the
    ///   wire, with URLSession's code and the ``CurlError`` as underlying error;
    ///   `URLError(.cancelled)` when the task is cancelled; ``CurlError`` when the transport is
    ///   shut down.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        let response = try await response(for: request)
        guard let httpResponse = response.httpURLResponse else {
            throw URLError(.badServerResponse, userInfo: Self.failingURLInfo(response.url))
        }
        return (response.body, httpResponse)
    }

    /// Sends `request`, following redirects, and returns the final response without building
    /// Foundation's `HTTPURLResponse` (see ``CurlResponse``): the same exchange and the same
    /// errors as ``data(for:)``, for less CPU and memory per request.
    public func response(for request: URLRequest) async throws -> CurlResponse {
        try request.validateForSending()
        try Self.refuseBodyOnGET(request)
        let deadline = configuration.totalDeadline.flatMap(Self.deadline(after:))
        var current = request
        var redirects = 0
        while true {
            let url = try Self.checkedURL(current)
            if Task.isCancelled { throw URLError(.cancelled, userInfo: Self.failingURLInfo(url)) }
            let remaining = try deadline.map { deadline throws(URLError) in
                let left = ContinuousClock.now.duration(to: deadline)
                guard left > .zero else { throw URLError(.timedOut, userInfo: Self.failingURLInfo(url)) }
                return Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            }
            let plan = CurlRequestPlan(request: current, url: url, configuration: configuration, remainingDeadline: remaining)
            let exchange = try await perform(plan)
            guard let response = CurlResponse(url: url, headerBytes: exchange.headerBytes, body: exchange.body) else {
                throw URLError(.badServerResponse, userInfo: Self.failingURLInfo(url))
            }
            let isRedirect = (300..<400).contains(response.statusCode)
            let location = isRedirect ? response.value(forHTTPHeaderField: "Location") : nil
            switch redirectPolicy.decision(after: current, statusCode: response.statusCode, location: location, redirectsSoFar: redirects) {
            case .deliver:
                return response
            case .follow(let next):
                current = next
                redirects += 1
            case .fail(let code):
                throw URLError(code, userInfo: Self.failingURLInfo(url))
            }
        }
    }

    /// One exchange on the curl thread; cancelling the task removes it from libcurl at once.
    private func perform(_ plan: CurlRequestPlan) async throws -> CurlExchange {
        let id = TransferID(rawValue: nextTransferID.add(1, ordering: .relaxed).newValue)
        let headerList = try headerLists.list(for: plan.headers)
        let transfer = CurlTransfer(id: id, plan: plan, headerList: headerList, configuration: configuration, bodyPool: bodyPool)
        let loop = self.loop
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                loop.submit(transfer)
            }
        } onCancel: {
            loop.cancel(transfer)
        }
    }

    /// When a call started now must end: nil (no limit) for NaN and for anything beyond
    /// `URLRequest.maximumTimeoutInterval`, infinity included, which `Duration` cannot hold.
    private static func deadline(after seconds: TimeInterval) -> ContinuousClock.Instant? {
        guard seconds <= URLRequest.maximumTimeoutInterval else { return nil }
        return ContinuousClock.now + .seconds(max(seconds, 0))
    }

    /// URLSession's answers for URLs it cannot send: no URL or no host → `.badURL`, a scheme
    /// other than http/https → `.unsupportedURL`.
    private static func checkedURL(_ request: URLRequest) throws(URLError) -> URL {
        guard let url = request.url else { throw URLError(.badURL) }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw URLError(.unsupportedURL, userInfo: failingURLInfo(url))
        }
        // Percent-encoded: only emptiness matters here, and decoding costs a microsecond a request.
        guard let host = url.host(percentEncoded: true), !host.isEmpty else {
            throw URLError(.badURL, userInfo: failingURLInfo(url))
        }
        return url
    }

    /// URLSession, on Darwin and Linux, refuses a GET that carries a body with
    /// `URLError(.dataLengthExceedsMaximum)` before sending anything; so does this transport, so
    /// that switching transports never changes what reaches a server.
    private static func refuseBodyOnGET(_ request: URLRequest) throws(URLError) {
        guard (request.httpMethod ?? "GET") == "GET",
              request.httpBodyStream != nil || !(request.httpBody ?? Data()).isEmpty
        else { return }
        throw URLError(.dataLengthExceedsMaximum, userInfo: request.url.map(failingURLInfo) ?? [:])
    }

    private static func failingURLInfo(_ url: URL) -> [String: Any] {
        [NSURLErrorFailingURLErrorKey: url]
    }
}
