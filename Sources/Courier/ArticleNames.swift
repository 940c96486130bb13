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

extension APIClient {
    /// WireKit's `APIClient.dispatch(_:)` is ``send(_:)-(Request<Response>)`` here, or
    /// `publisher(for:)` in CourierCombine.
    @available(*, unavailable, message: "use send(_:) from async code, or publisher(for:) from CourierCombine")
    public func dispatch<Response: Decodable>(_ request: Request<Response>) async throws(APIError) -> Response {
        try await send(request)
    }
}

extension Future {
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
