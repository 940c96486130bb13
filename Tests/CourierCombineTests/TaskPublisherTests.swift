#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier
import CourierCombine
import CourierTestSupport
import Testing

@Suite("TaskPublisher")
struct TaskPublisherTests {
    @Test func zippingTwoPublishersDeliversThePairWithoutTouchingAFreedSubscriber() async throws {
        // Zip completes, cancels its upstreams and releases itself inside receive(_:); a
        // `.finished` sent after that reached a freed subscriber and aborted the process.
        let zipped = TaskPublisher { () async throws -> Int in 1 }
            .zip(TaskPublisher { () async throws -> Int in 2 })
            .map { $0 + $1 }
        for _ in 0..<50 {
            let recording = try await record(zipped)
            #expect(recording.values == [3])
        }
    }

    @Test func emitsTheValueThenFinishes() async throws {
        let recording = try await record(TaskPublisher { () async throws -> Int in 7 })
        #expect(recording.values == [7])
        #expect(recording.finished)
    }

    @Test func failsWithTheTypedErrorTheOperationThrows() async throws {
        let publisher = TaskPublisher { () async throws(CombineTestError) -> Int in
            throw CombineTestError(code: 3)
        }
        let recording = try await record(publisher)
        #expect(recording.values.isEmpty)
        #expect(recording.failure == CombineTestError(code: 3))
    }

    @Test func runsTheOperationOncePerSubscription() async throws {
        let runs = Locked(0)
        let publisher = TaskPublisher { () async -> Int in
            runs.withLock { count in
                count += 1
                return count
            }
        }
        let first = try await record(publisher)
        let second = try await record(publisher)
        #expect(first.values.count == 1)
        #expect(second.values.count == 1)
        #expect(runs.value == 2)
    }

    @Test func startsOnlyWhenDemandArrives() async throws {
        let runs = Locked(0)
        let publisher = TaskPublisher { () async -> Int in
            runs.withLock { $0 += 1 }
            return 1
        }
        let subscriber = ManualSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        // Give a wrongly started task a moment to run. This can only miss a bug, never fail a
        // correct implementation.
        try await Task.sleep(for: .milliseconds(50))
        #expect(runs.value == 0)

        subscriber.request(.max(1))
        let completion = try await awaitWithin { try await subscriber.completed.future.value }
        #expect(subscriber.values.value == [1])
        #expect(completion == .finished)
        #expect(runs.value == 1)
    }

    @Test func cancellingBeforeDemandNeverRunsTheOperation() {
        let runs = Locked(0)
        let publisher = TaskPublisher { () async -> Int in
            runs.withLock { $0 += 1 }
            return 1
        }
        let subscriber = ManualSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.unlimited)   // after cancel: must not start a task
        #expect(runs.value == 0)
        #expect(subscriber.completed.future.result == nil)
    }

    @Test func cancellingTheSubscriptionCancelsTheTask() async throws {
        let started = Promise<Void>()
        let cancelled = Promise<Void>()
        let returned = Promise<Void>()
        let publisher = TaskPublisher { () async -> Int in
            await withTaskCancellationHandler {
                started.resolve()
                // Parks until cancelled: a never-completed future's value throws on cancellation.
                _ = try? await Promise<Void>().future.value
            } onCancel: {
                cancelled.resolve()
            }
            // Return anyway, as an operation that ignores cancellation would.
            returned.resolve()
            return 1
        }
        let subscriber = ManualSubscriber<Int, Never>()
        publisher.subscribe(subscriber)
        subscriber.request(.unlimited)
        try await awaitWithin { try await started.future.value }

        subscriber.cancel()
        try await awaitWithin { try await cancelled.future.value }
        try await awaitWithin { try await returned.future.value }

        // Give a wrongly delivered value a moment to show up. This can only miss a bug, never
        // fail a correct implementation.
        try await Task.sleep(for: .milliseconds(50))
        #expect(subscriber.values.value.isEmpty)
        #expect(subscriber.completed.future.result == nil)
    }
}
