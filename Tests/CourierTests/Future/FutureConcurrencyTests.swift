import Dispatch
import Synchronization
import CourierTestSupport
import Testing
@testable import Courier

@Suite("Future under concurrency")
struct FutureConcurrencyTests {
    /// Races observers against competing resolves on 1,000 futures from many threads, then checks
    /// that each future completed once and every observer saw the winning value exactly once.
    @Test func observersAndResolvesRacingFromManyThreads() {
        let futureCount = 1_000
        let observersPerFuture = 6
        let resolversPerFuture = 2
        let promises = (0..<futureCount).map { _ in Promise<Int>() }

        struct Tally {
            var observed: [[Int]]
            var winners: [[Int]]
        }
        let tally = Mutex(Tally(
            observed: Array(repeating: [], count: futureCount),
            winners: Array(repeating: [], count: futureCount)
        ))

        // A future's operations are adjacent iterations, so different threads pick them up at
        // the same moment. Roles 2 and 5 resolve (with different values), the others observe,
        // so some observers land before completion and some after.
        let roles = observersPerFuture + resolversPerFuture
        DispatchQueue.concurrentPerform(iterations: futureCount * roles) { iteration in
            let index = iteration / roles
            let role = iteration % roles
            let promise = promises[index]
            if role == 2 || role == 5 {
                let candidate = index * 10 + role
                if promise.resolve(with: candidate) {
                    tally.withLock { $0.winners[index].append(candidate) }
                }
            } else {
                promise.future.observe { result in
                    let value = (try? result.get()) ?? -1
                    tally.withLock { $0.observed[index].append(value) }
                }
            }
        }

        // Every callback has run: early ones inside resolve, late ones inside observe.
        let final = tally.withLock { $0 }
        var failures = 0
        for index in 0..<futureCount {
            let winners = final.winners[index]
            let observed = final.observed[index]
            if winners.count != 1
                || observed.count != observersPerFuture
                || !observed.allSatisfy({ $0 == winners.first })
                || promises[index].future.result?.successValue != winners.first {
                failures += 1
            }
        }
        #expect(failures == 0)
    }

    /// Awaiters and observers racing resolves from Swift tasks, the other way in.
    @Test func awaitersRacingResolvesAcrossTasks() async throws {
        let promises = (0..<200).map { _ in Promise<Int>() }
        let sums = try await awaitWithin {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for (index, promise) in promises.enumerated() {
                    group.addTask { try await promise.future.value }
                    group.addTask {
                        promise.resolve(with: index)
                        return 0
                    }
                    group.addTask { try await promise.future.map { $0 * 2 }.value - index }
                }
                return try await group.reduce(0, +)
            }
        }
        // Σ index from the awaiters plus Σ (2·index − index) from the mapped awaiters.
        let expected = 2 * (0..<200).reduce(0, +)
        #expect(sums == expected)
    }
}
