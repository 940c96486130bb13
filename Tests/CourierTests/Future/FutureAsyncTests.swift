import CourierTestSupport
import Testing
@testable import Courier

@Suite("Future async bridges")
struct FutureAsyncTests {
    @Test func operationResultBecomesTheValue() async throws {
        let future = Future { () async throws -> Int in
            await Task.yield()
            return 42
        }
        let value = try await awaitWithin { try await future.value }
        #expect(value == 42)
        #expect(future.result?.successValue == 42)
    }

    @Test func operationErrorIsThrownByValue() async throws {
        let future = Future<Int> { throw FutureTestError(code: 1) }
        await #expect(throws: FutureTestError(code: 1)) {
            try await awaitWithin { try await future.value }
        }
    }

    @Test func operationRunsWithoutAnyObserver() async throws {
        let ran = Promise<Void>()
        _ = Future<Int> {
            ran.resolve()
            return 1
        }
        // The future above is dropped at once; its operation must still run.
        try await awaitWithin { try await ran.future.value }
    }

    @Test func valueWaitsForALaterCompletion() async throws {
        let promise = Promise<String>()
        let waiter = Task { try await promise.future.value }
        await Task.yield()
        promise.resolve(with: "later")
        let value = try await awaitWithin { try await waiter.value }
        #expect(value == "later")
    }

    @Test func valueOfACompletedFutureReturnsAtOnce() async throws {
        #expect(try await Future(value: 1).value == 1)
        await #expect(throws: FutureTestError(code: 2)) {
            try await Future<Int>(error: FutureTestError(code: 2)).value
        }
    }

    @Test func cancellingAWaitThrowsCancellationErrorAndLeavesTheFutureAlone() async throws {
        let promise = Promise<Int>()
        let waiting = Promise<Void>()
        let waiter = Task {
            waiting.resolve()
            return try await promise.future.value
        }
        try await awaitWithin { try await waiting.future.value }
        waiter.cancel()

        let outcome = try await awaitWithin { await waiter.result }
        #expect(outcome.failureError is CancellationError)
        // The wait's callback was removed, not parked until completion…
        #expect(promise.future.pendingObserverCount == 0)
        // …and the future itself still completes for everyone else.
        #expect(promise.future.result == nil)
        #expect(promise.resolve(with: 3))
        #expect(try await promise.future.value == 3)
    }

    @Test func aCancelledTaskStillGetsAnAlreadyAvailableResult() async throws {
        let future = Future(value: 8)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await future.value
        }
        #expect(try await task.value == 8)
    }

    @Test func aPendingFutureInACancelledTaskThrowsWithoutWaiting() async throws {
        let promise = Promise<Int>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await promise.future.value
        }
        let outcome = try await awaitWithin { await task.result }
        #expect(outcome.failureError is CancellationError)
        #expect(promise.future.pendingObserverCount == 0)
    }

    @Test func manyAwaitersShareOneResult() async throws {
        let promise = Promise<Int>()
        let values = try await awaitWithin {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<100 {
                    group.addTask { try await promise.future.value }
                }
                group.addTask {
                    promise.resolve(with: 11)
                    return 11
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(values.count == 101)
        #expect(values.allSatisfy { $0 == 11 })
    }
}
