#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Every way a call through ``Dispatcher`` or ``APIClient`` can fail, with the context needed to
/// act on it: the method, the URL, and where a response arrived, its status and body bytes.
///
/// Switch on ``kind`` for the cause, or compare it (`error.kind == .notFound`):
///
/// ```swift
/// do throws(APIError) {
///     let user = try await client.send(Request<User>("users/42"))
///     show(user)
/// } catch {
///     switch error.kind {
///     case .notFound: showMissing()
///     case .unauthorized: signIn()
///     case .transport(let cause as URLError) where cause.code == .timedOut: retryLater()
///     default: report(error)                  // description names method, URL and status
///     }
/// }
/// ```
///
/// ``APIClient`` and ``Dispatcher`` throw only `APIError` (typed throws). A `do` block in a
/// function infers that type, but inside a closure such as `Task { }` the caught `error` is
/// `any Error`: write `do throws(APIError)` as above, or `catch let error as APIError` when
/// the block throws other errors too.
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// The cause of an ``APIError``.
    ///
    /// Kinds are `Equatable`; ``==(_:_:)`` says what it compares for the two kinds that carry
    /// an error, ``decoding(_:)`` and ``transport(_:)``.
    ///
    /// The cases are a closed set, so an exhaustive `switch` stays valid: they are the stages
    /// of one call (building, sending, the status, decoding), and Courier adds none before 2.0.
    /// A status without a case of its own, such as 429, arrives as
    /// ``otherClientError(statusCode:)`` or ``otherServerError(statusCode:)``; new detail about a
    /// failure goes into the error a case carries.
    public enum Kind: Sendable {
        /// 400 Bad Request.
        case badRequest
        /// 401 Unauthorized.
        case unauthorized
        /// 403 Forbidden.
        case forbidden
        /// 404 Not Found.
        case notFound
        /// Any other 4xx status.
        case otherClientError(statusCode: Int)
        /// 500 Internal Server Error.
        case serverError
        /// Any other 5xx status.
        case otherServerError(statusCode: Int)
        /// A status outside 2xx, 4xx and 5xx that reached the caller, e.g. a 304 or a redirect
        /// the transport did not follow.
        case unexpectedStatus(statusCode: Int)
        /// The body did not decode as the request's response type.
        case decoding(DecodingError)
        /// The request could not be built or was refused before sending.
        case invalidRequest(RequestError)
        /// The transport failed: usually a `URLError` (refused connection, timeout, connection
        /// lost, cancellation), kept as thrown.
        case transport(any Error)
        /// The transport returned a response that is not an `HTTPURLResponse`.
        case notHTTP
    }

    /// What went wrong.
    public var kind: Kind
    /// The request's method.
    public var method: String
    /// The request's URL, or `nil` when none could be formed (see ``Kind/invalidRequest(_:)``).
    public var url: URL?
    /// The response's head as the engine answered it, with its metrics; `nil` when no response
    /// arrived. Its ``ResponseHead/httpURLResponse`` is Foundation's response for a caller that
    /// needs one.
    public var head: ResponseHead?
    /// The response body bytes, when a response arrived.
    public var body: Data?

    /// Creates an error; Courier's dispatcher fills every field it knows. A test double that
    /// holds a Foundation response passes `ResponseHead(response)`.
    public init(kind: Kind, method: String, url: URL?, head: ResponseHead? = nil, body: Data? = nil) {
        self.kind = kind
        self.method = method
        self.url = url
        self.head = head
        self.body = body
    }

    /// The response's status code, when a response arrived.
    public var statusCode: Int? { head?.statusCode }

    /// What the engine measured of the exchange: the response's ``ResponseHead/metrics`` when a
    /// response arrived; for a transport failure, what its `URLError` carries of an exchange
    /// that failed after it started (``Foundation/URLError/exchangeMetrics``), such as how long
    /// it ran before a timeout or a reset; nil when nothing was measured.
    public var metrics: ExchangeMetrics? {
        if let head { return head.metrics }
        return urlError?.exchangeMetrics
    }

    /// The underlying `URLError` of a transport failure.
    public var urlError: URLError? {
        if case .transport(let error as URLError) = kind { error } else { nil }
    }

    /// The error for an exchange of `request` that failed before a response arrived. Made out
    /// of line: the awaiting frames that call it stay allocated while the request is in flight,
    /// and every value an inlined body could hold makes them larger.
    @inline(never)
    package static func failure(_ error: any Error, sending request: URLRequest) -> APIError {
        let method = request.httpMethod ?? "GET"
        switch error {
        case let error as RequestError:
            return APIError(kind: .invalidRequest(error), method: method, url: request.url)
        case let error as NotHTTPResponse:
            return APIError(kind: .notHTTP, method: method, url: request.url, body: error.body)
        default:
            return APIError(kind: .transport(error), method: method, url: request.url)
        }
    }

    /// The error for a response to `request` whose status the caller does not accept, with
    /// the body, or what was kept of it.
    @inline(never)
    package static func unacceptable(_ head: ResponseHead, body: Data, for request: URLRequest) -> APIError {
        let kind = kind(forStatusCode: head.statusCode) ?? .unexpectedStatus(statusCode: head.statusCode)
        return APIError(kind: kind, method: request.httpMethod ?? "GET", url: request.url, head: head, body: body)
    }

    /// The kind for a status code outside 2xx, or `nil` for 2xx.
    package static func kind(forStatusCode statusCode: Int) -> Kind? {
        switch statusCode {
        case 200..<300: nil
        case 400: .badRequest
        case 401: .unauthorized
        case 403: .forbidden
        case 404: .notFound
        case 400..<500: .otherClientError(statusCode: statusCode)
        case 500: .serverError
        case 500..<600: .otherServerError(statusCode: statusCode)
        default: .unexpectedStatus(statusCode: statusCode)
        }
    }

    public var description: String {
        // A request that could not be built has no URL; its error names the text it was given.
        let target = url.map { "\(method) \($0.redactedString)" } ?? method
        // A response that ran out of retries says so; a failure's own words already do.
        let attempts = head.map { $0.metrics.attempts.count + 1 }.flatMap { $0 > 1 ? ", after \($0) attempts" : nil } ?? ""
        let status = statusCode.map { " (status \($0)\(attempts))" } ?? ""
        return "\(target)\(status): \(kind)"
    }
}

extension APIError.Kind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .badRequest: "bad request"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "not found"
        case .otherClientError(let code): "client error \(code)"
        case .serverError: "server error"
        case .otherServerError(let code): "server error \(code)"
        case .unexpectedStatus(let code): "unexpected status \(code)"
        case .decoding(let error): "response did not decode: \(error)"
        case .invalidRequest(let error): "invalid request: \(error)"
        case .transport(let error as URLError): "transport failed: URLError \(error.code.rawValue) \(redactingURLs(in: error.whatHappened))"
        case .transport(let error): "transport failed: \(redactingURLs(in: String(describing: error)))"
        case .notHTTP: "response is not HTTP"
        }
    }
}
