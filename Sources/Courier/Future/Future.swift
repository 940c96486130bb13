import Synchronization

/// The eventual result of an asynchronous operation: a value or an error, delivered once.
///
/// A `Future` is the callback-style counterpart of an `async` function. It is useful where a
/// result has to be handed around, shared by several consumers, or observed from code that is not
/// `async` (delegates, UI callbacks, Combine through `CourierCombine`).
///
/// ```swift
/// let user = Future { try await networking(request).0 }.decoded(as: User.self)
/// user
///     .map(\.name)
///     .onValue { name in print("Hello, \(name)") }
///     .onError { error in print("Failed: \(error)") }
/// ```
///
/// Create one with a ``Promise`` (completed by hand, e.g. from a completion handler), from an
/// `async` operation with ``init(operation:)``, or already completed with ``init(value:)``,
/// ``init(error:)`` or ``init(result:)``. Go back to `async` code with ``value``. Observe it
/// with ``observe(_:)``, which "API Design — Deriving Future" calls `onResult`.
///
/// Combine has a `Future` too. In a file that imports Combine or OpenCombine as well as
/// Courier, the plain name is ambiguous: write `Courier.Future`, or `CourierFuture`, which
/// CourierCombine declares for this.
///
/// ## Guarantees
///
/// - **Completes exactly once.** The first completion wins; later ones are ignored (and
///   ``Promise/complete(with:)`` reports them by returning `false`).
/// - **Keeps its result.** An observer added after completion is still called, immediately.
/// - **Where callbacks run.** An observer added *before* completion is called on the thread that
///   completes the future, synchronously inside that call, after observers registered earlier.
///   An observer added *after* completion is called synchronously on the observing thread, before
///   ``observe(_:)`` returns. No lock is held while a callback runs, so callbacks may observe or
///   complete any future, including this one. Hop to another executor (e.g. `MainActor`) inside
///   the callback if you need one.
/// - **Thread-safe.** Every method may be called from any thread concurrently.
/// - **No retain cycles through callbacks.** The future holds its observers only while pending and
///   releases them when it completes, so a callback may capture the future itself.
///
/// A future does not cancel the work that completes it: it may be shared by many observers, and
/// none of them owns the operation. Cancelling a task that awaits ``value`` stops that wait only.
public final class Future<Value: Sendable>: Sendable {
    /// A callback that receives the future's result.
    public typealias Observer = @Sendable (Result<Value, any Error>) -> Void

    private let state: Mutex<FutureState<Value>>

    /// A pending future; only ``Promise`` and ``init(operation:)`` complete one, so this stays
    /// internal.
    init() {
        state = Mutex(FutureState())
    }

    /// Creates a future that has already completed with `result`.
    public init(result: Result<Value, any Error>) {
        state = Mutex(FutureState(result: result))
    }

    /// Creates a future that has already succeeded with `value`.
    ///
    /// Handy where an API returns a future but the answer is known up front (a cache hit, a stub
    /// in a test).
    public convenience init(value: Value) {
        self.init(result: .success(value))
    }

    /// Creates a future that has already failed with `error`.
    ///
    /// Lets a function that returns a future report an early failure (such as an invalid URL)
    /// through the same channel as a late one.
    public convenience init(error: any Error) {
        self.init(result: .failure(error))
    }

    /// The result if the future has completed, or `nil` while it is pending.
    ///
    /// This never blocks or waits; use ``value`` to wait for the result, or ``observe(_:)`` to be
    /// called back.
    public var result: Result<Value, any Error>? {
        state.withLock { $0.result }
    }

    /// Calls `callback` with the result once it is available.
    ///
    /// If the future has already completed, `callback` runs immediately on the calling thread,
    /// before this method returns. Otherwise it runs on the thread that completes the future,
    /// after every observer registered before it. The future keeps `callback` only until it
    /// completes.
    public func observe(_ callback: @escaping Observer) {
        _ = addObserver(callback)
    }

    /// Registers `callback`, or calls it at once when the result is known.
    ///
    /// - Returns: An identifier that ``removeObserver(_:)`` accepts, or `nil` when `callback`
    ///   has already been called.
    func addObserver(_ callback: @escaping Observer) -> FutureState<Value>.ObserverID? {
        switch state.withLock({ $0.observe(callback) }) {
        case .registered(let id):
            return id
        case .callNow(let result):
            callback(result)
            return nil
        }
    }

    /// Forgets a pending observer so that it is never called and no longer retained.
    func removeObserver(_ id: FutureState<Value>.ObserverID) {
        state.withLock { $0.removeObserver(id) }
    }

    /// Completes the future and calls its observers, unless it has already completed.
    ///
    /// - Returns: `true` if this call completed the future, `false` if it had already completed
    ///   (the result passed here is then discarded).
    @discardableResult
    func complete(with result: Result<Value, any Error>) -> Bool {
        // Take the observers out under the lock, call them outside it: a callback that touches
        // this future again must not deadlock.
        guard let observers = state.withLock({ $0.complete(with: result) }) else {
            return false
        }
        for observer in observers {
            observer(result)
        }
        return true
    }

    /// The number of observers still waiting; lets tests check that callbacks are released.
    var pendingObserverCount: Int {
        state.withLock { $0.pendingObserverCount }
    }
}
