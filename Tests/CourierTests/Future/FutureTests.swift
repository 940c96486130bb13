import Dispatch
import Synchronization
import CourierTestSupport
import Testing
@testable import Courier

/// An error with an identity, so tests can check which failure arrived.
struct FutureTestError: Error, Equatable {
    let code: Int
}

/// A thread-safe list of what callbacks saw, in the order they ran.
final class FutureTestLog<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])

    func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    var entries: [Element] {
        storage.withLock { $0 }
    }
}

extension Result {
    var successValue: Success? {
        if case .success(let value) = self { value } else { nil }
    }

    var failureError: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}

@Suite("Future")
struct FutureTests {
    @Test func completesOnlyOnceAndKeepsTheFirstResult() {
        let promise = Promise<Int>()
        let log = FutureTestLog<Int?>()
        promise.future.observe { log.append($0.successValue) }

        #expect(promise.resolve(with: 1))
        #expect(!promise.resolve(with: 2))
        #expect(!promise.reject(with: FutureTestError(code: 3)))
        #expect(!promise.complete(with: .success(4)))

        #expect(log.entries == [1])
        #expect(promise.future.result?.successValue == 1)
    }

    @Test func aFailedFutureCannotBeResolvedLater() {
        let promise = Promise<Int>()
        #expect(promise.reject(with: FutureTestError(code: 1)))
        #expect(!promise.resolve(with: 2))
        #expect(promise.future.result?.failureError as? FutureTestError == FutureTestError(code: 1))
    }

    @Test func pendingFutureHasNoResult() {
        #expect(Promise<Int>().future.result == nil)
    }

    @Test func lateObserverIsCalledImmediatelyOnTheObservingThread() {
        let promise = Promise<String>()
        promise.resolve(with: "done")

        let log = FutureTestLog<String>()
        promise.future.observe { log.append($0.successValue ?? "failure") }
        // No waiting: the callback has already run by the time observe returns.
        #expect(log.entries == ["done"])
    }

    @Test func earlyObserversRunInOrderOnTheCompletingThreadBeforeResolveReturns() {
        let promise = Promise<Int>()
        let queue = DispatchQueue(label: "completing")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "completing")

        let log = FutureTestLog<String>()
        for index in 0..<5 {
            promise.future.observe { result in
                log.append("\(index):\(result.successValue ?? -1):\(DispatchQueue.getSpecific(key: key) ?? "other")")
            }
        }
        queue.sync { _ = promise.resolve(with: 7) }

        #expect(log.entries == (0..<5).map { "\($0):7:completing" })
    }

    @Test func alreadyCompletedInitializers() {
        #expect(Future(value: 3).result?.successValue == 3)
        #expect(Future<Int>(error: FutureTestError(code: 9)).result?.failureError as? FutureTestError
            == FutureTestError(code: 9))
        #expect(Future<Int>(result: .success(5)).result?.successValue == 5)
    }

    @Test func callbacksMayReenterTheFutureWithoutDeadlocking() {
        let promise = Promise<Int>()
        let log = FutureTestLog<String>()
        promise.future.observe { _ in
            // Runs outside the lock, so touching the same future again is safe.
            log.append("outer resolve again: \(promise.resolve(with: 2))")
            promise.future.observe { log.append("inner saw \($0.successValue ?? -1)") }
        }
        promise.resolve(with: 1)
        #expect(log.entries == ["outer resolve again: false", "inner saw 1"])
    }

    @Test func observersAreReleasedOnCompletion() {
        let promise = Promise<Int>()
        promise.future.observe { _ in }
        promise.future.observe { _ in }
        #expect(promise.future.pendingObserverCount == 2)
        promise.resolve(with: 1)
        #expect(promise.future.pendingObserverCount == 0)
    }

    @Test func aCallbackCapturingItsOwnFutureDoesNotLeakIt() {
        weak var weakFuture: Future<Int>?
        weak var weakMapped: Future<String>?
        do {
            let promise = Promise<Int>()
            let future = promise.future
            // A deliberate cycle while pending: the future holds the callback, which holds it.
            future.observe { _ in _ = future.result }
            let mapped = future.map { "\($0)" }
            weakFuture = future
            weakMapped = mapped
            promise.resolve(with: 1)
            #expect(mapped.result?.successValue == "1")
        }
        #expect(weakFuture == nil)
        #expect(weakMapped == nil)
    }

    @Test func voidPromiseResolvesWithoutAnArgument() {
        let promise = Promise<Void>()
        #expect(promise.resolve())
        #expect(!promise.resolve())
        #expect(promise.future.result?.successValue != nil)
    }
}
