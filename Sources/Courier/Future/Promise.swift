/// The write side of a ``Future``: whoever holds the promise decides the result.
///
/// Hand out ``future`` and keep the promise, so that only the producer can complete it:
///
/// ```swift
/// func loadAvatar(for user: User) -> Future<Data> {
///     let promise = Promise<Data>()
///     legacyLoader.load(user.avatarURL) { data, error in
///         if let data { promise.resolve(with: data) }
///         else { promise.reject(with: error ?? URLError(.unknown)) }
///     }
///     return promise.future
/// }
/// ```
///
/// A promise is a small value: copies share the same future, and any copy may complete it from
/// any thread. Only the first completion counts.
public struct Promise<Value: Sendable>: Sendable {
    /// The future this promise completes.
    public let future: Future<Value>

    /// Creates a promise with a pending future.
    public init() {
        future = Future()
    }

    /// Completes the future with `value`.
    ///
    /// Observers registered so far run on the calling thread before this method returns.
    ///
    /// - Returns: `true` if this call completed the future, `false` if it was already completed
    ///   (then `value` is discarded and observers are not called again).
    @discardableResult
    public func resolve(with value: Value) -> Bool {
        future.complete(with: .success(value))
    }

    /// Fails the future with `error`.
    ///
    /// - Returns: `true` if this call completed the future, `false` if it was already completed.
    @discardableResult
    public func reject(with error: any Error) -> Bool {
        future.complete(with: .failure(error))
    }

    /// Completes the future with `result`, which is convenient when forwarding a result from
    /// another API.
    ///
    /// - Returns: `true` if this call completed the future, `false` if it was already completed.
    @discardableResult
    public func complete(with result: Result<Value, any Error>) -> Bool {
        future.complete(with: result)
    }
}

extension Promise where Value == Void {
    /// Completes a `Void` future, so signals read `promise.resolve()` rather than
    /// `promise.resolve(with: ())`.
    ///
    /// - Returns: `true` if this call completed the future, `false` if it was already completed.
    @discardableResult
    package func resolve() -> Bool {
        future.complete(with: .success(()))
    }
}
