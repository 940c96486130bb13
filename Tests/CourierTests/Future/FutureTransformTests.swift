import Testing
@testable import Courier

@Suite("Future transforms")
struct FutureTransformTests {
    @Test func mapTransformsTheValue() {
        let promise = Promise<Int>()
        let mapped = promise.future.map { $0 * 10 }
        #expect(mapped.result == nil)
        promise.resolve(with: 4)
        #expect(mapped.result?.successValue == 40)
    }

    @Test func mapPropagatesAnErrorThrownByTheTransform() {
        let mapped = Future(value: 1).map { _ -> Int in throw FutureTestError(code: 1) }
        #expect(mapped.result?.failureError as? FutureTestError == FutureTestError(code: 1))
    }

    @Test func mapSkipsTheTransformOnFailure() {
        let calls = FutureTestLog<Int>()
        let mapped = Future<Int>(error: FutureTestError(code: 2)).map { value -> Int in
            calls.append(value)
            return value
        }
        #expect(calls.entries.isEmpty)
        #expect(mapped.result?.failureError as? FutureTestError == FutureTestError(code: 2))
    }

    @Test func flatMapChainsAnAsynchronousStep() {
        let first = Promise<Int>()
        let second = Promise<String>()
        let chained = first.future.flatMap { value -> Future<String> in
            second.future.map { "\($0)-\(value)" }
        }
        first.resolve(with: 1)
        #expect(chained.result == nil)   // still waiting for the second step
        second.resolve(with: "b")
        #expect(chained.result?.successValue == "b-1")
    }

    @Test func flatMapPropagatesEveryKindOfFailure() {
        let thrown = Future(value: 1).flatMap { _ -> Future<Int> in throw FutureTestError(code: 1) }
        #expect(thrown.result?.failureError as? FutureTestError == FutureTestError(code: 1))

        let inner = Future(value: 1).flatMap { _ in Future<Int>(error: FutureTestError(code: 2)) }
        #expect(inner.result?.failureError as? FutureTestError == FutureTestError(code: 2))

        let calls = FutureTestLog<Int>()
        let outer = Future<Int>(error: FutureTestError(code: 3)).flatMap { value -> Future<Int> in
            calls.append(value)
            return Future(value: value)
        }
        #expect(calls.entries.isEmpty)
        #expect(outer.result?.failureError as? FutureTestError == FutureTestError(code: 3))
    }

    @Test func onValueAndOnErrorSeeOnlyTheirCase() {
        let values = FutureTestLog<Int>()
        let errors = FutureTestLog<Int>()

        let succeeded = Promise<Int>()
        let returned = succeeded.future
            .onValue { values.append($0) }
            .onError { errors.append(($0 as? FutureTestError)?.code ?? -1) }
        #expect(returned === succeeded.future)
        succeeded.resolve(with: 5)

        Future<Int>(error: FutureTestError(code: 6))
            .onValue { values.append($0) }
            .onError { errors.append(($0 as? FutureTestError)?.code ?? -1) }

        #expect(values.entries == [5])
        #expect(errors.entries == [6])
    }

    @Test func anErrorAnywhereInAChainReachesTheFinalOnError() {
        let promise = Promise<Int>()
        let values = FutureTestLog<String>()
        let errors = FutureTestLog<Int>()
        promise.future
            .map { $0 + 1 }
            .flatMap { value -> Future<Int> in
                if value > 1 { throw FutureTestError(code: value) }
                return Future(value: value)
            }
            .map { "\($0)" }
            .onValue { values.append($0) }
            .onError { errors.append(($0 as? FutureTestError)?.code ?? -1) }
        promise.resolve(with: 4)
        #expect(values.entries.isEmpty)
        #expect(errors.entries == [5])
    }
}
