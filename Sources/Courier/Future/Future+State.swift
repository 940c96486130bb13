/// The lifecycle of a ``Future`` as a plain value.
///
/// Keeping the transitions in a value type means the lock in ``Future`` guards nothing but a
/// `mutating` call, and the side effects (calling observers) are decided here but performed by
/// the caller after the lock is released — so an observer can safely observe or complete the
/// same future re-entrantly.
struct FutureState<Value: Sendable>: Sendable {
    typealias Observer = @Sendable (Result<Value, any Error>) -> Void

    /// Identifies a registered observer so a waiter that gives up (a cancelled `value` await)
    /// can remove its callback instead of leaving it parked until completion.
    struct ObserverID: Hashable, Sendable {
        fileprivate let rawValue: UInt64
    }

    /// What the caller of ``observe(_:)`` must do once the lock is released.
    enum ObserveAction: Sendable {
        /// The observer was stored and will be called when the future completes.
        case registered(ObserverID)
        /// The future has already completed: call the observer now with this result.
        case callNow(Result<Value, any Error>)
    }

    private struct Registration: Sendable {
        let id: ObserverID
        let callback: Observer
    }

    private enum Phase: Sendable {
        case pending(observers: [Registration], nextID: UInt64)
        case completed(Result<Value, any Error>)
    }

    private var phase: Phase

    /// A pending state with no observers.
    init() {
        phase = .pending(observers: [], nextID: 0)
    }

    /// A state that completed before anyone could observe it.
    init(result: Result<Value, any Error>) {
        phase = .completed(result)
    }

    /// The result, or `nil` while pending.
    var result: Result<Value, any Error>? {
        guard case .completed(let result) = phase else { return nil }
        return result
    }

    /// How many observers are waiting; tests use it to prove callbacks are released.
    var pendingObserverCount: Int {
        guard case .pending(let observers, _) = phase else { return 0 }
        return observers.count
    }

    mutating func observe(_ callback: @escaping Observer) -> ObserveAction {
        switch phase {
        case .completed(let result):
            return .callNow(result)
        case .pending(var observers, let nextID):
            // Drop the enum's reference first so the append does not copy the array.
            phase = .pending(observers: [], nextID: nextID)
            let id = ObserverID(rawValue: nextID)
            observers.append(Registration(id: id, callback: callback))
            phase = .pending(observers: observers, nextID: nextID &+ 1)
            return .registered(id)
        }
    }

    /// Removes a pending observer; a no-op once the future has completed or the observer is gone.
    mutating func removeObserver(_ id: ObserverID) {
        guard case .pending(var observers, let nextID) = phase else { return }
        phase = .pending(observers: [], nextID: nextID)
        observers.removeAll { $0.id == id }
        phase = .pending(observers: observers, nextID: nextID)
    }

    /// Moves to `completed` and hands back the observers to call, in registration order, or
    /// returns `nil` when the future had already completed (the new result is ignored).
    ///
    /// The observers leave the state here, so the future stops retaining them — and whatever
    /// they capture — the moment it completes.
    mutating func complete(with result: Result<Value, any Error>) -> [Observer]? {
        guard case .pending(let observers, _) = phase else { return nil }
        phase = .completed(result)
        return observers.map(\.callback)
    }
}
