#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// The transport backed by `URLSession` (FoundationNetworking on Linux).
///
/// Its engine runs one task per exchange and lets FoundationNetworking follow no redirect;
/// redirects, the total deadline, retries, response validation and error descriptions are the
/// shared ``Policies`` layers over it, the same ones `CurlTransport` uses. The session is
/// configured so that results depend only on the request and the server, never on state left
/// by earlier requests: no URL cache and, unless asked for, no cookie storage. That is also what
/// lets its answers be compared with `CurlTransport`'s.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, transport: transport)
/// ```
///
/// FoundationNetworking cannot pause a transfer, so the bytes of a streamed body its reader has
/// not read yet wait in memory, up to ``Configuration/maximumUnreadBytes``, past which the body
/// fails; use `CurlTransport` to read large bodies slowly in bounded memory. A
/// ``RequestBody/stream(_:length:)`` body is written to a temporary file before it is sent
/// (FoundationNetworking can only wait for a body's bytes without blocking when they come from
/// a file).
public struct URLSessionTransport: HTTPTransport {
    /// The session requests are sent with.
    package let session: URLSession
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
        let session = URLSession(configuration: configuration.sessionConfiguration(), delegate: delegate, delegateQueue: delegateQueue)
        self.init(session: session, delegate: delegate, configuration: configuration)
    }

    /// Wraps an existing session as it is, caches, cookies and delegate included, with the
    /// default ``Policies`` layers over it.
    ///
    /// - Warning: Such a session follows redirects itself, before the policy layers see them,
    ///   its bodies are not bounded by ``Policies/maximumResponseBytes`` and are buffered whole
    ///   before a streamed head returns, and it decodes every content coding
    ///   (``Configuration/ContentDecoding/all``). On Linux it never completes a request
    ///   answered with `401` and `WWW-Authenticate` unless its own delegate handles the
    ///   challenge. A `timeoutInterval` with a fraction of a second is rounded up to whole
    ///   seconds, the unit FoundationNetworking counts in.
    public init(session: URLSession) {
        self.init(session: session, delegate: nil, configuration: Configuration(contentDecoding: .all))
    }

    private init(session: URLSession, delegate: SessionDelegate?, configuration: Configuration) {
        self.session = session
        self.delegate = delegate
        self.configuration = configuration
        let tasks = TaskQueue()
        self.tasks = tasks
        engine = Self.engine(session: session, tasks: tasks, delegate: delegate, configuration: configuration)
            .applying(configuration.policies)
    }

    let delegate: SessionDelegate?
    let tasks: TaskQueue
    /// The engine with the configuration's policies over it, built once.
    public let engine: TransportEngine

    /// The configuration's policies.
    public var policies: Policies { configuration.policies }

    /// FoundationNetworking can neither pause a transfer nor stop decoding, traps on trailers,
    /// and hands over no response before its upload has ended.
    public var capabilities: TransportCapabilities {
        TransportCapabilities(pausesForSlowReaders: false, stopsDecodingAtTheLimit: false, returnsTrailers: false)
    }

    /// The engine's two calls with no policy over them, for tests.
    package var bareEngine: TransportEngine {
        Self.engine(session: session, tasks: tasks, delegate: delegate, configuration: configuration)
    }

    /// The engine's two calls, with no policy over them: every 3xx is returned as it is and
    /// bodies are bounded by ``Policies/maximumResponseBytes``.
    static func engine(session: URLSession, tasks: TaskQueue, delegate: SessionDelegate?, configuration: Configuration) -> TransportEngine {
        let exchange: HTTPExchange = { request in
            try await session.courierData(
                for: prepared(request, uploading: nil, configuration: configuration), tasks: tasks, delegate: delegate
            )
        }
        return TransportEngine(exchange: exchange) { request, upload in
            if upload?.isDuplex == true { throw duplexRefusal }
            guard let delegate else {
                // Without Courier's delegate nothing streams: the upload is collected, and still
                // sent as an upload rather than as the request's own body, as with the delegate.
                let body = try await upload?.collect()
                let (data, head) = try await session.courierData(
                    for: prepared(request, uploading: upload, configuration: configuration), uploading: body,
                    tasks: tasks, delegate: nil
                )
                return (ResponseBody(data, metrics: head.metrics), head)
            }
            return try await session.courierStream(
                for: prepared(request, uploading: upload, configuration: configuration), uploading: upload,
                tasks: tasks, delegate: delegate
            )
        }
    }

    /// FoundationNetworking's tasks have one timeout for silence, connecting included, and none
    /// for connecting alone.
    static let connectTimeoutRefusal = RequestError.unsupportedOption(
        "bound connecting alone (Policies.connectTimeout)", transport: "URLSessionTransport", supportedBy: "CurlTransport"
    )

    /// FoundationNetworking hands over a response only once its upload has ended, and a
    /// streamed body is spooled whole before the first byte goes out (see ``UploadSpool``): a
    /// body that waits for the response would wait for ever.
    static let duplexRefusal = RequestError.unsupportedOption(
        "read the response while a duplex body (RequestBody.duplex) is still being sent",
        transport: "URLSessionTransport", supportedBy: "CurlTransport"
    )

    /// `request` checked as both engines check it, and completed as this one sends it.
    package static func prepared(_ request: URLRequest, uploading upload: RequestBody?, configuration: Configuration) throws -> URLRequest {
        _ = try request.checkedForSending(uploading: upload, transport: "URLSessionTransport", sendsOverUnixSockets: false)
        if configuration.policies.connectTimeout != nil { throw connectTimeoutRefusal }
        var request = request
        if configuration.contentDecoding == .identityOnly, request.value(forHTTPHeaderField: "Accept-Encoding") == nil {
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        }
        // Set only when it differs: each change copies Foundation's request object.
        let idleTimeout = request.idleTimeout(under: configuration.policies)
        if request.timeoutInterval != idleTimeout { request.timeoutInterval = idleTimeout }
        return request
    }
}
