import Synchronization

extension Future {
    /// Creates a future completed by an `async` operation, which starts at once in a new `Task`.
    ///
    /// The operation runs whether or not anyone observes the future — a request fired for its side
    /// effect still goes out — and it runs only once however many observers there are. Its
    /// returned value or thrown error becomes the future's result.
    ///
    /// The task inherits the caller's priority and task-local values but not its actor, so the
    /// operation runs on the global concurrent executor. The future cannot cancel it; wrap the
    /// work in your own `Task` if you need that.
    public convenience init(operation: @escaping @Sendable () async throws -> Value) {
        self.init()
        Task { [self] in
            do {
                complete(with: .success(try await operation()))
            } catch {
                complete(with: .failure(error))
            }
        }
    }

    /// Waits for the future to complete, then returns its value or throws its error.
    ///
    /// This bridges back to `async` code: `let user = try await future.value`.
    ///
    /// **Cancellation.** If the awaiting task is cancelled while the future is still pending, the
    /// wait ends promptly by throwing `CancellationError`. The future itself is unaffected — it
    /// may be shared, so it keeps running and other observers and awaiters still get its result.
    /// If the future has already completed, its result is returned even in a cancelled task,
    /// because there is nothing left to wait for.
    public var value: Value {
        get async throws {
            if let result {
                return try result.get()
            }
            let waiter = ValueWaiter<Value>()
            var observerID: FutureState<Value>.ObserverID?
            // A cancelled wait must not leave its callback parked in the future until the future
            // completes, which may be never; the body has always run by the time we get here.
            defer {
                if let observerID { removeObserver(observerID) }
            }
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    guard waiter.install(continuation) else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    observerID = addObserver { waiter.resume(with: $0) }
                }
            } onCancel: {
                waiter.cancel()
            }
        }
    }
}

/// One `await future.value`: a continuation resumed exactly once, by the future's result or by
/// task cancellation, whichever comes first.
private final class ValueWaiter<Value: Sendable>: Sendable {
    private enum State {
        /// The continuation is not stored yet.
        case idle
        case suspended(CheckedContinuation<Value, any Error>)
        /// Cancellation arrived before the continuation was stored.
        case cancelled
        case resumed
    }

    private let state = Mutex(State.idle)

    /// Stores the continuation. Returns `false` if the task was cancelled first; the caller then
    /// resumes the continuation itself.
    func install(_ continuation: CheckedContinuation<Value, any Error>) -> Bool {
        state.withLock { state in
            guard case .idle = state else { return false }
            state = .suspended(continuation)
            return true
        }
    }

    func resume(with result: Result<Value, any Error>) {
        takeContinuation()?.resume(with: result)
    }

    func cancel() {
        let continuation = state.withLock { state -> CheckedContinuation<Value, any Error>? in
            if case .idle = state {
                state = .cancelled
                return nil
            }
            return Self.take(&state)
        }
        continuation?.resume(throwing: CancellationError())
    }

    private func takeContinuation() -> CheckedContinuation<Value, any Error>? {
        state.withLock { Self.take(&$0) }
    }

    private static func take(_ state: inout State) -> CheckedContinuation<Value, any Error>? {
        guard case .suspended(let continuation) = state else { return nil }
        state = .resumed
        return continuation
    }
}
