extension Future {
    /// Returns a future whose value is `transform` applied to this future's value.
    ///
    /// An error from this future skips `transform` and passes through unchanged; an error thrown
    /// by `transform` fails the returned future. This lets a chain focus on the success path and
    /// handle every failure once, at the end. `transform` runs where observers run (see
    /// ``Future``).
    public func map<T: Sendable>(
        _ transform: @escaping @Sendable (Value) throws -> T
    ) -> Future<T> {
        let promise = Promise<T>()
        observe { result in
            promise.complete(with: result.flatMap { value in
                Result { try transform(value) }
            })
        }
        return promise.future
    }

    /// Returns a future that runs the asynchronous step `transform` after this future succeeds,
    /// and completes with that step's result.
    ///
    /// Use it to sequence dependent operations, such as fetching a user and then their friends.
    /// Errors from this future, thrown by `transform`, or reported by the future it returns all
    /// fail the returned future.
    public func flatMap<T: Sendable>(
        _ transform: @escaping @Sendable (Value) throws -> Future<T>
    ) -> Future<T> {
        let promise = Promise<T>()
        observe { result in
            switch result {
            case .success(let value):
                do {
                    try transform(value).observe { promise.complete(with: $0) }
                } catch {
                    promise.complete(with: .failure(error))
                }
            case .failure(let error):
                promise.complete(with: .failure(error))
            }
        }
        return promise.future
    }

    /// Calls `handler` with the value if the future succeeds, and returns this future so that
    /// more handlers can be chained.
    ///
    /// `handler` runs where observers run (see ``Future``), in the order it was added relative to
    /// other observers.
    @discardableResult
    public func onValue(_ handler: @escaping @Sendable (Value) -> Void) -> Future<Value> {
        observe { result in
            if case .success(let value) = result { handler(value) }
        }
        return self
    }

    /// Calls `handler` with the error if the future fails, and returns this future so that more
    /// handlers can be chained.
    ///
    /// Errors thrown by earlier ``map(_:)`` or ``flatMap(_:)`` steps arrive here, so one
    /// `onError` at the end of a chain covers every step.
    @discardableResult
    public func onError(_ handler: @escaping @Sendable (any Error) -> Void) -> Future<Value> {
        observe { result in
            if case .failure(let error) = result { handler(error) }
        }
        return self
    }
}
