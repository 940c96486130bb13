#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Synchronization

/// A publisher that runs an `async` operation in a new `Task` for each subscriber, emits its
/// result once and finishes.
///
/// This is the bridge every other publisher in `CourierCombine` is built on. It behaves like
/// `URLSession.DataTaskPublisher`:
///
/// - **Cold.** Nothing runs until a subscriber asks for a value; each subscription runs the
///   operation again.
/// - **Demand-aware.** The task starts on the first request for a non-zero demand, so a
///   subscriber that requests nothing never triggers the work.
/// - **Cancellable.** Cancelling the subscription cancels the task, and nothing is delivered
///   after that, even if the operation ignores cancellation and returns anyway.
///
/// The value and the completion are delivered on the thread that ran the operation, a thread of
/// Swift's global concurrent executor; use `receive(on:)` to move them elsewhere.
///
/// ```swift
/// let names = TaskPublisher { () async throws(APIError) -> [String] in
///     try await client.send(.userNames)
/// }
/// ```
public struct TaskPublisher<Output: Sendable, Failure: Error>: Publisher, Sendable {
    /// The work run for each subscription; the error type it throws becomes the publisher's
    /// `Failure`, so `throws(Never)` gives a publisher that cannot fail.
    public typealias Operation = @Sendable () async throws(Failure) -> Output

    private let operation: Operation

    /// Creates a publisher that runs `operation` once per subscription.
    public init(operation: @escaping Operation) {
        self.operation = operation
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        // Erasing the subscriber keeps its type out of the task's closure: only `Output` and
        // `Failure`, whose metatypes are Sendable, are captured across threads.
        let subscription = TaskSubscription(subscriber: AnySubscriber(subscriber), operation: operation)
        subscriber.receive(subscription: subscription)
    }
}

/// One subscription to a ``TaskPublisher``: owns the subscriber until it is completed or
/// cancelled, and the task once demand starts it.
///
/// `request(_:)`, `cancel()` and the task's completion may arrive on different threads at once,
/// so every transition happens under `state`'s lock, and the subscriber is handed out of the
/// state exactly once — to be called or dropped — after the lock is released.
private final class TaskSubscription<Output: Sendable, Failure: Error>: Subscription, Sendable {
    typealias Operation = TaskPublisher<Output, Failure>.Operation

    private enum State: Sendable {
        case awaitingDemand(SubscriberBox<Output, Failure>, Operation)
        /// `task` is `nil` only in the short window between leaving the lock and storing it.
        case running(SubscriberBox<Output, Failure>, task: Task<Void, Never>?)
        /// The value is being handed to the subscriber, which may cancel from inside
        /// `receive(_:)`; the completion is sent only if it did not.
        case delivering
        case finished
    }

    private let state: Mutex<State>

    init(subscriber: AnySubscriber<Output, Failure>, operation: @escaping Operation) {
        state = Mutex(.awaitingDemand(SubscriberBox(subscriber), operation))
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let operation = state.withLock { state -> Operation? in
            guard case .awaitingDemand(let subscriber, let operation) = state else { return nil }
            state = .running(subscriber, task: nil)
            return operation
        }
        guard let operation else { return }

        let task = Task { [self] in
            let result: Result<Output, Failure>
            do throws(Failure) {
                result = .success(try await operation())
            } catch {
                result = .failure(error)
            }
            deliver(result)
        }
        // Keep the task for `cancel()`, unless a cancel slipped in while it was being created.
        let cancelledMeanwhile = state.withLock { state -> Bool in
            guard case .running(let subscriber, task: nil) = state else { return true }
            state = .running(subscriber, task: task)
            return false
        }
        if cancelledMeanwhile {
            task.cancel()
        }
    }

    func cancel() {
        let task = state.withLock { state -> Task<Void, Never>? in
            defer { state = .finished }
            guard case .running(_, let task) = state else { return nil }
            return task
        }
        task?.cancel()
    }

    private func deliver(_ result: Result<Output, Failure>) {
        let box = state.withLock { state -> SubscriberBox<Output, Failure>? in
            guard case .running(let box, _) = state else { return nil }
            if case .success = result { state = .delivering } else { state = .finished }
            return box
        }
        guard let subscriber = box?.subscriber else { return }   // cancelled: drop the result
        switch result {
        case .success(let value):
            _ = subscriber.receive(value)
            // Zip, for one, completes on this value, cancels its upstreams and releases itself
            // inside `receive(_:)`; a completion sent after that reaches a freed subscriber.
            let cancelledDuringDelivery = state.withLock { state -> Bool in
                guard case .delivering = state else { return true }
                state = .finished
                return false
            }
            if !cancelledDuringDelivery {
                subscriber.receive(completion: .finished)
            }
        case .failure(let error):
            subscriber.receive(completion: .failure(error))
        }
    }
}

/// Carries a subscriber through the lock.
///
/// `@unchecked Sendable` because Combine subscribers are not `Sendable`, although Combine's
/// contract lets a publisher call them from any thread as long as calls do not overlap.
/// ``TaskSubscription`` keeps that promise: it releases the box from its state exactly once, and
/// only the thread that took it out calls the subscriber.
private struct SubscriberBox<Input, Failure: Error>: @unchecked Sendable {
    let subscriber: AnySubscriber<Input, Failure>

    init(_ subscriber: AnySubscriber<Input, Failure>) {
        self.subscriber = subscriber
    }
}

extension TaskPublisher: CustomStringConvertible {
    public var description: String { "TaskPublisher" }
}
