#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier
import Synchronization
import CourierTestSupport
import Testing

struct CombineTestError: Error, Equatable {
    let code: Int
}

/// A thread-safe box for counters and flags set from operations under test.
final class Locked<Value: Sendable>: Sendable {
    private let storage: Mutex<Value>

    init(_ value: Value) {
        storage = Mutex(value)
    }

    func withLock<R: Sendable>(_ body: @Sendable (inout Value) -> R) -> R {
        storage.withLock { body(&$0) }
    }

    var value: Value {
        storage.withLock { $0 }
    }
}

/// What a subscriber saw, collected with `sink`.
struct Recording<Output: Sendable, Failure: Error>: Sendable {
    var values: [Output] = []
    var completion: Subscribers.Completion<Failure>?

    var finished: Bool {
        if case .finished = completion { true } else { false }
    }

    var failure: Failure? {
        if case .failure(let error) = completion { error } else { nil }
    }
}

/// Subscribes with unlimited demand and waits (bounded) for the completion.
func record<P: Publisher>(_ publisher: P) async throws -> Recording<P.Output, P.Failure>
where P.Output: Sendable {
    let recording = Locked(Recording<P.Output, P.Failure>())
    let completed = Promise<Void>()
    let cancellable = publisher.sink(
        receiveCompletion: { completion in
            recording.withLock { $0.completion = completion }
            completed.resolve()
        },
        receiveValue: { value in
            recording.withLock { $0.values.append(value) }
        }
    )
    try await awaitWithin { try await completed.future.value }
    withExtendedLifetime(cancellable) {}
    return recording.value
}

/// A subscriber that requests nothing by itself, so tests control demand.
final class ManualSubscriber<Input: Sendable, Failure: Error>: Subscriber, Sendable {
    private let subscription = Locked<SubscriptionBox?>(nil)
    let values = Locked<[Input]>([])
    let completed = Promise<Subscribers.Completion<Failure>>()

    struct SubscriptionBox: @unchecked Sendable {   // test-only: used from the test's task
        let subscription: any Subscription
    }

    func receive(subscription: any Subscription) {
        let box = SubscriptionBox(subscription: subscription)
        self.subscription.withLock { $0 = box }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        values.withLock { $0.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        completed.resolve(with: completion)
    }

    func request(_ demand: Subscribers.Demand) {
        subscription.value?.subscription.request(demand)
    }

    func cancel() {
        subscription.value?.subscription.cancel()
    }
}
