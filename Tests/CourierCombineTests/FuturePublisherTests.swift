#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
@testable import Courier
import CourierCombine
import CourierTestSupport
import Testing

@Suite("Future.publisher")
struct FuturePublisherTests {
    @Test func emitsACompletedValueOnceAndFinishes() async throws {
        let recording = try await record(Courier.Future(value: 5).publisher)
        #expect(recording.values == [5])
        #expect(recording.finished)
    }

    @Test func emitsOnceAPendingFutureCompletes() async throws {
        let promise = Promise<String>()
        let subscriber = ManualSubscriber<String, any Error>()
        promise.future.publisher.subscribe(subscriber)
        subscriber.request(.unlimited)
        promise.resolve(with: "ready")
        let completion = try await awaitWithin { try await subscriber.completed.future.value }
        #expect(subscriber.values.value == ["ready"])
        guard case .finished = completion else {
            Issue.record("expected .finished, got \(completion)")
            return
        }
    }

    @Test func failsWithTheFuturesError() async throws {
        let recording = try await record(Courier.Future<Int>(error: CombineTestError(code: 2)).publisher)
        #expect(recording.values.isEmpty)
        #expect(recording.failure as? CombineTestError == CombineTestError(code: 2))
    }

    @Test func everySubscriberGetsTheSameResult() async throws {
        let runs = Locked(0)
        let future = Courier.Future { () async throws -> Int in
            runs.withLock { $0 += 1 }
            return 9
        }
        let first = try await record(future.publisher)
        let second = try await record(future.publisher)
        #expect(first.values == [9])
        #expect(second.values == [9])
        #expect(runs.value == 1)   // the future's work is shared, not re-run per subscriber
    }

    @Test func cancellingStopsTheWaitButNotTheFuture() async throws {
        let promise = Promise<Int>()
        let subscriber = ManualSubscriber<Int, any Error>()
        promise.future.publisher.subscribe(subscriber)
        subscriber.request(.unlimited)
        try await awaitWithin {
            while promise.future.pendingObserverCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        }

        subscriber.cancel()
        // The cancelled wait removes its callback from the future (bounded poll, no fixed sleep).
        try await awaitWithin {
            while promise.future.pendingObserverCount != 0 { try await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(promise.resolve(with: 1))
        #expect(subscriber.completed.future.result == nil)
        #expect(subscriber.values.value.isEmpty)
    }
}
