#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// The ``Networking`` transport backed by `URLSession` (FoundationNetworking on Linux).
///
/// Its ``engine`` runs one data task per exchange and lets FoundationNetworking follow no
/// redirect; redirects, the total deadline, response validation and error descriptions are the
/// shared ``Policies`` layers over it, the same ones `CurlTransport` uses. The session is
/// configured so that results depend only on the request and the server, never on state left
/// by earlier requests: no URL cache and, unless asked for, no cookie storage. That is also what
/// lets its answers be compared with `CurlTransport`'s.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, networking: transport.networking)
/// ```
public struct URLSessionTransport: HTTPTransport {
    /// The session requests are sent with.
    public let session: URLSession
    /// The settings this transport was created with.
    public let configuration: Configuration

    /// Creates a transport with a session built from `configuration`.
    public init(configuration: Configuration = Configuration()) {
        let delegate = SessionDelegate(configuration: configuration)
        // Without a queue of its own, the delegate's operations wait for a thread of the
        // global pool, which blocking work elsewhere in the process can fill; meanwhile
        // FoundationNetworking keeps reading and queues every block it reads for the delegate.
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.underlyingQueue = delegate.queue
        self.session = URLSession(configuration: configuration.sessionConfiguration(), delegate: delegate, delegateQueue: delegateQueue)
        self.delegate = delegate
        self.configuration = configuration
        let tasks = TaskQueue()
        self.tasks = tasks
        let engine = Self.engine(session: session, tasks: tasks, delegate: delegate, contentDecoding: configuration.contentDecoding)
        layered = configuration.policies.apply(to: engine)
        layeredExchange = configuration.policies.apply(
            to: Self.exchangeEngine(session: session, tasks: tasks, delegate: delegate, contentDecoding: configuration.contentDecoding)
        )
        layeredStreaming = configuration.policies.apply(
            to: Self.streamingEngine(session: session, tasks: tasks, delegate: delegate, contentDecoding: configuration.contentDecoding)
        )
    }

    /// Wraps an existing session as it is, caches, cookies and delegate included, with the
    /// default ``Policies`` layers over it.
    ///
    /// - Warning: Such a session follows redirects itself, before the policy layers see them,
    ///   its bodies are not bounded by ``Policies/maximumResponseBytes``, and it decodes every
    ///   content coding (``Configuration/ContentDecoding/all``). On Linux it never
    ///   completes a request answered with `401` and `WWW-Authenticate` unless its own delegate
    ///   handles the challenge. A `timeoutInterval` with a fraction of a second is rounded up to
    ///   whole seconds, the unit FoundationNetworking counts in.
    public init(session: URLSession) {
        self.session = session
        self.delegate = nil
        configuration = Configuration(contentDecoding: .all)
        let tasks = TaskQueue()
        self.tasks = tasks
        let engine = Self.engine(session: session, tasks: tasks, delegate: nil, contentDecoding: .all)
        layered = configuration.policies.apply(to: engine)
        layeredExchange = configuration.policies.apply(
            to: Self.exchangeEngine(session: session, tasks: tasks, delegate: nil, contentDecoding: .all)
        )
        layeredStreaming = configuration.policies.apply(
            to: Self.streamingEngine(session: session, tasks: tasks, delegate: nil, contentDecoding: .all)
        )
    }

    let delegate: SessionDelegate?
    let tasks: TaskQueue
    private let layered: Networking
    private let layeredExchange: HTTPExchange
    let layeredStreaming: StreamingNetworking

    /// Sends `request` through the policy layers and returns the body and response; any HTTP
    /// status is a response.
    ///
    /// - Throws: ``RequestError`` for a request with a malformed method or header (nothing is
    ///   sent); `URLError` for failures on the wire, with a readable description;
    ///   `URLError(.cancelled)` when the calling task is cancelled.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await layered(request)
    }

    /// This transport as a ``Networking`` value: the engine with the configuration's
    /// ``Policies`` layers over it.
    public var networking: Networking { layered }

    /// The configuration's policies.
    public var policies: Policies { configuration.policies }

    /// FoundationNetworking can neither pause a transfer nor stop decoding, and traps on
    /// trailers.
    public var capabilities: TransportCapabilities {
        TransportCapabilities(pausesForSlowReaders: false, stopsDecodingAtTheLimit: false, returnsTrailers: false)
    }

    /// This transport as an ``HTTPExchange``: the same layers, answering with Courier's own
    /// ``ResponseHead``, for ``APIClient/init(baseURL:exchange:streaming:decoder:encoder:)``.
    /// FoundationNetworking builds its `HTTPURLResponse` anyway; the head reads its fields only
    /// when asked for.
    public var exchange: HTTPExchange { layeredExchange }

    /// One exchange and nothing else: every 3xx is returned as it is, bodies are bounded by
    /// ``Policies/maximumResponseBytes``, and no policy layer runs. Compose your own stack over
    /// it with ``layered(_:_:)`` or ``Policies/apply(to:)-(Networking)``.
    public var engine: Networking {
        Self.engine(session: session, tasks: tasks, delegate: delegate, contentDecoding: configuration.contentDecoding)
    }

    static func engine(
        session: URLSession, tasks: TaskQueue, delegate: SessionDelegate?, contentDecoding: Configuration.ContentDecoding
    ) -> Networking {
        { request in
            try await session.courierExchange(
                for: prepared(request, contentDecoding: contentDecoding), tasks: tasks, delegate: delegate
            )
        }
    }

    /// ``engine`` answering with Courier's own head and what a layer can measure around
    /// FoundationNetworking: when the head arrived, the whole exchange, the decoded body.
    static func exchangeEngine(
        session: URLSession, tasks: TaskQueue, delegate: SessionDelegate?, contentDecoding: Configuration.ContentDecoding
    ) -> HTTPExchange {
        { request in
            let started = ContinuousClock.now
            let exchange = try session.courierExchange(for: prepared(request, contentDecoding: contentDecoding), tasks: tasks)
            let (data, response) = try await session.perform(exchange, delegate: delegate)
            guard var head = ResponseHead(response) else { throw NotHTTPResponse(response: response, body: data) }
            head.metrics.firstByte = exchange.firstByte.withLock { $0 }.map { $0 - started }
            head.metrics.total = ContinuousClock.now - started
            head.metrics.decodedBodyBytes = data.count
            return (data, head)
        }
    }

    /// `request` checked and completed as every exchange sends it.
    static func prepared(
        _ request: URLRequest, uploading upload: UploadBody? = nil, contentDecoding: Configuration.ContentDecoding
    ) throws -> URLRequest {
        try request.validateForSending(uploading: upload)
        var request = request
        if contentDecoding == .identityOnly, request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        // FoundationNetworking's own default, `<process> (unknown version) curl/<version>`,
        // names neither the app's version nor Courier; CurlTransport sends this same value.
        if request.value(forHTTPHeaderField: "User-Agent") == nil {
            request.setValue(DefaultUserAgent.value, forHTTPHeaderField: "User-Agent")
        }
        // FoundationNetworking would still speak FTP or FILE through libcurl.
        if let url = request.url, let scheme = url.scheme?.lowercased(), scheme != "http", scheme != "https" {
            if url.namesUnixSocket {
                throw RequestError.unsupportedOption(
                    "send over a Unix domain socket (\(scheme) URL)", transport: "URLSessionTransport", supportedBy: "CurlTransport"
                )
            }
            throw URLError(.unsupportedURL, "only http and https URLs are sent", url: url)
        }
        return request
    }
}

extension URLSession {
    /// `data(for:)` as a ``Networking`` value, with Courier's request validation in front and
    /// the default ``Policies`` layers over it.
    ///
    /// An unapplied `session.data(for:)` does not convert to ``Networking`` on Linux, where the
    /// method has a defaulted `delegate:` parameter; use this property instead.
    public var networking: Networking {
        URLSessionTransport(session: self).networking
    }

    /// One task, bridged to async/await with cancellation that reaches the task.
    ///
    /// FoundationNetworking's own `data(for:)` has differed across releases in how (and whether)
    /// Task cancellation stops the transfer; owning the bridge makes it `URLError(.cancelled)`
    /// promptly on every platform. With Courier's delegate the task's bytes go through it, so
    /// the body is bounded and redirects are left to the layers; without it, a completion
    /// handler collects the body.
    func courierExchange(
        for request: URLRequest, tasks: URLSessionTransport.TaskQueue, delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> (Data, URLResponse) {
        try await perform(courierExchange(for: request, tasks: tasks), delegate: delegate)
    }

    /// The exchange `request` is sent as, with the session's timeout; throws when the calling
    /// task is cancelled already.
    func courierExchange(for request: URLRequest, tasks: URLSessionTransport.TaskQueue) throws -> URLSessionTransport.Exchange {
        let request = withSessionTimeout(request)
        // A task cancelled before it got here sends nothing. Its cancellation would otherwise
        // reach FoundationNetworking only through the task queue, after `resume()` had
        // already put the request on the wire.
        try Task.checkCancellation(url: request.url)
        return URLSessionTransport.Exchange(request: request, tasks: tasks)
    }

    /// Runs `exchange`'s task and returns what it answered. A failure carries what could be
    /// measured around the task until then (``Foundation/URLError/exchangeMetrics``).
    func perform(
        _ exchange: URLSessionTransport.Exchange, delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> (Data, URLResponse) {
        do {
            return try await run(exchange, delegate: delegate)
        } catch let error as URLError {
            throw error.carrying(exchange.measuredSoFar)
        }
    }

    private func run(
        _ exchange: URLSessionTransport.Exchange, delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> (Data, URLResponse) {
        let request = exchange.request
        let tasks = exchange.tasks
        let idleTimeout = delegate == nil ? nil : URLSessionTransport.IdleTimeout.start(for: exchange)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.start {
                    let task: URLSessionDataTask
                    if let delegate {
                        task = self.dataTask(with: request.wholeSecondTimeout)
                        delegate.register(exchange, for: task, idleTimeout: idleTimeout)
                    } else {
                        task = self.dataTask(with: request.wholeSecondTimeout) { data, response, error in
                            exchange.complete(data: data, response: response, error: error, challenged: nil)
                        }
                    }
                    exchange.start(task, continuation: continuation)
                } refuse: {
                    idleTimeout?.cancel()
                    continuation.resume(throwing: URLSessionTransport.shutDownError(url: request.url))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// `request` with the session's idle timeout when it sets none, clamped to what
    /// FoundationNetworking can express. A fraction of a second is kept: the delegate enforces
    /// it (see ``URLSessionTransport/IdleTimeout``) and FoundationNetworking gets
    /// ``URLRequest/wholeSecondTimeout``.
    func withSessionTimeout(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.timeoutInterval == 0 {
            request.timeoutInterval = configuration.timeoutIntervalForRequest
        }
        if request.timeoutInterval > URLRequest.maximumTimeoutInterval {
            request.timeoutInterval = URLRequest.maximumTimeoutInterval
        }
        return request
    }
}

extension URLRequest {
    /// This request with its timeout rounded up to whole seconds, as FoundationNetworking counts
    /// them (it truncates, so 0.5 s would time out at once).
    var wholeSecondTimeout: URLRequest {
        var request = self
        request.timeoutInterval = URLSessionTransport.IdleTimeout.sessionTimeout(for: timeoutInterval)
        return request
    }
}
