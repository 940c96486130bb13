#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// The articles Courier's vocabulary comes from name a few things differently. Readers type those
// names first; each one here is unavailable, so the compiler answers with Courier's name (and a
// fix-it where it can) instead of "cannot find in scope". The "Coming from the articles" article
// maps every name.

/// "Building type-safe networking in Swift" calls it `HttpMethod`; Courier's is ``HTTPMethod``.
@available(*, unavailable, renamed: "HTTPMethod")
public typealias HttpMethod = HTTPMethod

/// WireKit's `NetworkDispatcher` is Courier's ``Dispatcher``: `dispatch(request:)` is
/// ``Dispatcher/dispatch(_:as:)`` (and `publisher(for:as:)` in CourierCombine), and every
/// failure is one ``APIError`` rather than a `NetworkRequestError` case.
@available(*, unavailable, renamed: "Dispatcher")
public typealias NetworkDispatcher = Dispatcher

extension Dispatcher {
    /// WireKit's `NetworkDispatcher()` and `NetworkDispatcher(urlSession:)`: a ``Dispatcher``
    /// sends through any ``Networking``, so it names one.
    ///
    /// Declared so that the article's call, which leaves out `networking:`, gets this message
    /// rather than "missing argument for parameter 'networking'".
    @available(
        *, unavailable,
        message: "a Dispatcher sends through a Networking: Dispatcher(networking: URLSessionTransport().networking)"
    )
    public init(urlSession: URLSession = .shared) {
        self.init(networking: URLSessionTransport(session: urlSession).networking)
    }
}

/// WireKit's `NetworkRequestError` is Courier's ``APIError``: its cases are ``APIError/Kind``'s
/// (`error.kind`), and the error keeps the method, the URL, the response and its body.
@available(*, unavailable, renamed: "APIError", message: "its cases are APIError.Kind's, read from error.kind")
public typealias NetworkRequestError = APIError

/// "Building networking layer using functions" modifies requests with functions; Courier's
/// header fields and credentials are policies, which every layer sees.
@available(*, unavailable, message: "header fields are Policies.headers, a credential an Authentication layer")
public typealias RequestModifier = @Sendable (URLRequest) -> URLRequest

/// The article's token modifier: a fixed credential is an ``Authentication`` layer.
@available(
    *, unavailable,
    message: "a token is a credential: policies.callLayers = [Authentication(origin: baseURL, credential: .bearer(token))]"
)
public func tokenRequestModifier(_ token: String) -> RequestModifier {
    { $0 }
}

/// A token modifier: a fixed credential is an ``Authentication`` layer.
@available(
    *, unavailable,
    message: "a token is a credential: policies.callLayers = [Authentication(origin: baseURL, credential: .bearer(token))]"
)
public func bearerToken(_ token: String) -> RequestModifier {
    { $0 }
}

/// A header modifier: fields every request carries are ``Policies/headers``.
@available(*, unavailable, message: "fields every request carries are Policies.headers: policies.headers[name] = value")
public func header(_ name: String, _ value: String) -> RequestModifier {
    { $0 }
}

/// A header modifier: fields every request carries are ``Policies/headers``.
@available(*, unavailable, message: "fields every request carries are Policies.headers")
public func defaultHeaders(_ headers: [String: String]) -> RequestModifier {
    { $0 }
}

extension APIClient {
    /// WireKit's `APIClient(baseURL: "https://…")`: Courier's base URL is a `URL`, and the
    /// client names the ``Networking`` it sends through.
    ///
    /// Declared so that a string base URL gets this message rather than "no exact matches in
    /// call to initializer".
    @available(
        *, unavailable,
        message: "the base URL is a URL, and the client names its Networking: APIClient(baseURL: URL(string: \"https://…\")!, networking: URLSessionTransport().networking)"
    )
    public init(baseURL: String, networking: Networking? = nil) {
        self.init(baseURL: URL(string: baseURL) ?? URL(fileURLWithPath: "/"), networking: networking ?? URLSessionTransport().networking)
    }

    /// WireKit's client defaults its dispatcher to one over `URLSession.shared`; Courier's client
    /// names the ``Networking`` it sends through.
    ///
    /// Declared so that leaving it out gets this message, and not one about the string form
    /// above.
    @available(
        *, unavailable,
        message: "the client names its Networking: APIClient(baseURL: baseURL, networking: URLSessionTransport().networking)"
    )
    public init(baseURL: URL) {
        self.init(baseURL: baseURL, networking: URLSessionTransport().networking)
    }

    /// WireKit's `APIClient.dispatch(_:)` is ``send(_:)-(Request<Response>)`` here, or
    /// `publisher(for:)` in CourierCombine.
    @available(*, unavailable, message: "use send(_:) from async code, or publisher(for:) from CourierCombine")
    public func dispatch<Response: Decodable>(_ request: Request<Response>) async throws(APIError) -> Response {
        try await send(request)
    }
}

extension Future {
    /// "Functional networking in Swift" observes a result with `.value` and `.error` cases;
    /// Courier's ``observe(_:)`` passes a `Result`, whose cases are `.success` and `.failure`.
    ///
    /// Declared, with ``ArticleFutureResult``, so that a closure matching the article's cases
    /// gets this message rather than "type 'Result<…>' has no member 'value'".
    @available(*, unavailable, message: "observe passes a Result: match .success(let value) and .failure(let error)")
    public func observe(_ callback: @escaping @Sendable (ArticleFutureResult<Value>) -> Void) {
        observe { result in
            switch result {
            case .success(let value): callback(.value(value))
            case .failure(let error): callback(.error(error))
            }
        }
    }

    /// "API Design — Deriving Future" calls it `onResult`; Courier's is ``observe(_:)``.
    @available(*, unavailable, renamed: "observe(_:)")
    public func onResult(_ callback: @escaping Observer) {
        observe(callback)
    }

    /// "API Design — Deriving Future" creates a future from a function that takes a completion
    /// handler; in Courier the completion handler belongs to a ``Promise``:
    ///
    /// ```swift
    /// let promise = Promise<Data>()
    /// legacyLoad(url) { result in promise.complete(with: result) }
    /// return promise.future
    /// ```
    ///
    /// From `async` code, ``init(operation:)`` does the same: `Future { try await load(url) }`.
    @available(
        *, unavailable,
        message: "create a Promise, call promise.complete(with:) from the completion handler and return promise.future"
    )
    public convenience init(_ start: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void) {
        self.init()
        start { [self] result in complete(with: result) }
    }
}

/// The result "Functional networking in Swift" observes, with `.value` and `.error` cases. In
/// Courier a future's result is a `Result<Value, any Error>`: `.success` and `.failure`.
@available(*, unavailable, message: "a Future's result is a Result: .success(let value) and .failure(let error)")
public enum ArticleFutureResult<Value: Sendable>: Sendable {
    /// `Result.success`.
    case value(Value)
    /// `Result.failure`.
    case error(any Error)
}

extension Promise {
    /// "Functional networking in Swift" returns `Promise(value:)` where a future is expected:
    /// its promise is a future. Courier's ``Promise`` is the producer's side of one, and
    /// ``Future/init(value:)`` is a future that already has its value.
    @available(*, unavailable, message: "a Promise is the producer's side of a Future; Future(value:) is a future that already has its value")
    public init(value: Value) {
        self.init()
        resolve(with: value)
    }
}

/// "Building networking layer using functions" composes with `compose(_:_:)`; it does what
/// ``chain(_:to:)-8ygq5`` does, in the same order, so Courier keeps one spelling.
@available(*, unavailable, renamed: "chain(_:to:)")
public func compose<A, B, C>(
    _ f: @escaping @Sendable (A) async throws -> B,
    _ g: @escaping @Sendable (B) async throws -> C
) -> @Sendable (A) async throws -> C {
    chain(f, to: g)
}
