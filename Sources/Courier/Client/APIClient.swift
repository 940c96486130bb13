#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A typed client for one HTTP API: resolves ``Request``s against a base URL, sends them with a
/// ``Dispatcher`` and decodes the response into each request's `Response` type.
///
/// ```swift
/// let client = APIClient(baseURL: URL(string: "https://api.example.com/v1/")!, transport: URLSessionTransport())
/// let user: User = try await client.send(Request("users/42"))
/// try await client.send(Request<Void>("users/42", method: .delete))
/// ```
///
/// All failures are thrown as ``APIError``.
public struct APIClient: Sendable {
    /// The URL relative request paths are resolved against.
    public var baseURL: URL {
        get { base.url }
        set { base = ResolvedBaseURL(newValue) }
    }
    /// ``baseURL`` taken apart once, rather than on every request.
    private var base: ResolvedBaseURL
    /// Sends requests, validates statuses and decodes bodies.
    public var dispatcher: Dispatcher
    /// Encodes JSON request bodies (``RequestBody/json(_:)-(Value)``).
    public var encoder: JSONEncoder
    /// Sends the requests whose body is read as it arrives (see
    /// ``stream(_:)``); `nil` buffers them through the dispatcher's ``Networking``.
    package var streaming: StreamingNetworking?
    /// Sends a request with a body read as it goes out (a file, a stream, a form with files)
    /// and answers with the response's body whole: the transport's streamed call, read up to
    /// its ``Policies/maximumResponseBytes``; over a ``Networking``, the body collected first.
    package var sendingBody: (@Sendable (URLRequest, RequestBody) async throws -> (Data, ResponseHead))?
    /// The header fields the transport's policies give every request (``Policies/headers``, the
    /// `User-Agent`), set when the request is built; empty over a ``Networking``.
    private var defaultFields = DefaultFields()
    /// The transport the client was made over, nil over a ``Networking``: what
    /// `CourierWebSocket` opens the client's WebSockets through.
    package private(set) var transport: (any HTTPTransport)?

    /// Creates a client over any ``Networking``: a composed stack, a function over another
    /// client, or a test double. ``stream(_:)`` then buffers each body, and a request body read
    /// as it is sent (a file, a form with files) is collected before it is sent.
    public init(baseURL: URL, networking: @escaping Networking, decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()) {
        self.init(baseURL: baseURL, exchange: Courier.exchange(networking), decoder: decoder, encoder: encoder)
    }

    /// A client over a transport: requests go through its policies (layers of your own, such
    /// as `logging(to:)`, `recordingMetrics()` and `tracing()`, go there too: see
    /// ``Policies/callLayers``), answers keep their ``ResponseHead`` (no Foundation response is
    /// built unless asked for), and ``stream(_:)`` and request bodies read as they are sent
    /// stream through the transport.
    ///
    /// ```swift
    /// let transport = try CurlTransport()
    /// let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, transport: transport)
    /// ```
    public init(
        baseURL: URL, transport: some HTTPTransport, decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()
    ) {
        // The engine's own call rather than the transport's `exchange`, which wraps it in one
        // more async frame for every request; the closures below keep the transport alive.
        self.init(
            baseURL: baseURL, exchange: transport.engine.exchange, streaming: transport.streaming,
            decoder: decoder, encoder: encoder
        )
        self.transport = transport
        sendingBody = { request, body in
            try await transport.engine.exchange(request, sending: body, upTo: transport.policies.maximumResponseBytes)
        }
        defaultFields = DefaultFields(transport.policies.defaultFields)
    }

    /// A client over an ``HTTPExchange`` and, optionally, a ``StreamingNetworking``.
    package init(
        baseURL: URL,
        exchange: @escaping HTTPExchange,
        streaming: StreamingNetworking? = nil,
        decoder: JSONDecoder = JSONDecoder(),
        encoder: JSONEncoder = JSONEncoder()
    ) {
        self.init(baseURL: baseURL, dispatcher: Dispatcher(exchange: exchange, decoder: decoder), encoder: encoder)
        self.streaming = streaming
    }

    /// Creates a client over a configured dispatcher: what it sends through,
    /// its status validation and its decoder are used as they are.
    package init(baseURL: URL, dispatcher: Dispatcher, encoder: JSONEncoder = JSONEncoder()) {
        base = ResolvedBaseURL(baseURL)
        self.dispatcher = dispatcher
        self.encoder = encoder
    }

    /// The `URLRequest` that ``send(_:)-(Request<Response>)`` would send for `request`: its body
    /// when the body is held in memory; a body read as it is sent (a file, a stream, a form
    /// with files) goes beside it, and only its `Content-Type` is in the `URLRequest`.
    public func urlRequest<Response>(for request: Request<Response>) throws(APIError) -> URLRequest {
        do {
            return try request.urlRequest(base: base, encoder: encoder, defaultFields: defaultFields)
        } catch {
            throw APIError(
                kind: .invalidRequest(error),
                method: request.method.name,
                url: try? request.endpoint.url(relativeTo: baseURL)
            )
        }
    }

    /// Sends `request` and decodes the body as `Response`.
    public func send<Response: Decodable>(_ request: Request<Response>) async throws(APIError) -> Response {
        let (data, head, urlRequest) = try await answer(to: request)
        return try dispatcher.decode(Response.self, from: data, head: head, request: urlRequest)
    }

    /// Sends `request` and returns the raw body bytes of a successful response.
    public func send(_ request: Request<Data>) async throws(APIError) -> Data {
        try await answer(to: request).0
    }

    /// Sends `request`, checks the status and ignores the body (204, `HEAD`, fire-and-forget).
    public func send(_ request: Request<Void>) async throws(APIError) {
        _ = try await answer(to: request)
    }

    /// Sends `request` and returns the decoded value with the response's head: its status,
    /// header fields, HTTP version and metrics.
    ///
    /// ```swift
    /// let (repos, head) = try await client.response(to: .repos(of: "apple"))
    /// print(head.value(forHTTPHeaderField: "X-RateLimit-Remaining") ?? "-", head.metrics.total ?? .zero)
    /// ```
    public func response<Response: Decodable>(to request: Request<Response>) async throws(APIError) -> (Response, ResponseHead) {
        let (data, head, urlRequest) = try await answer(to: request)
        return (try dispatcher.decode(Response.self, from: data, head: head, request: urlRequest), head)
    }

    /// Sends `request` and returns the body as it arrived, with the response's head.
    public func response(to request: Request<Data>) async throws(APIError) -> (Data, ResponseHead) {
        let (data, head, _) = try await answer(to: request)
        return (data, head)
    }

    /// Sends `request`, its body beside it when the body is read as it is sent, and answers with
    /// an acceptable response's body and head, and the request as sent.
    ///
    /// Its ``Request/timeoutInterval`` travels beside it (``ChosenTimeoutInterval``): the
    /// `URLRequest` cannot tell a chosen 60 s from its default.
    private func answer<Response>(to request: Request<Response>) async throws(APIError) -> (Data, ResponseHead, URLRequest) {
        try await ChosenTimeoutInterval.during(request.timeoutInterval) { () async throws(APIError) in try await exchange(request) }
    }

    /// ``answer(to:)`` with the request's timeout already marked.
    private func exchange<Response>(_ request: Request<Response>) async throws(APIError) -> (Data, ResponseHead, URLRequest) {
        let urlRequest = try urlRequest(for: request)
        guard let body = request.method.body, !body.isInMemory else {
            let (data, head) = try await dispatcher.response(to: urlRequest)
            return (data, head, urlRequest)
        }
        let answer: (Data, ResponseHead)
        do {
            if let sendingBody {
                answer = try await sendingBody(urlRequest, body)
            } else {
                answer = try await dispatcher.exchange(urlRequest.sending(collected: body))
            }
        } catch {
            throw APIError.failure(error, sending: urlRequest)
        }
        guard dispatcher.acceptableStatusCodes.contains(answer.1.statusCode) else {
            throw APIError.unacceptable(answer.1, body: answer.0, for: urlRequest)
        }
        return (answer.0, answer.1, urlRequest)
    }
}
