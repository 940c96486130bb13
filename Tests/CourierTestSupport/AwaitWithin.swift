import Courier

/// Thrown by ``awaitWithin(seconds:_:)`` when the body did not return in time.
public struct TestTimedOut: Error {}

/// Runs `body`, failing with ``TestTimedOut`` instead of hanging the suite if it does not return
/// in time. The limit is generous; passing tests finish in milliseconds. It was 5 s until two
/// Future tests crossed it in the first seconds of a suite run at a load average of 5.
///
/// The two racers are unstructured tasks so that a timeout returns even when `body` ignores
/// cancellation (as a broken implementation under test would).
public func awaitWithin<T: Sendable>(
    seconds: Double = 30,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let outcome = Promise<T>()
    let work = Task {
        do {
            outcome.resolve(with: try await body())
        } catch {
            outcome.reject(with: error)
        }
    }
    let timer = Task {
        try await Task.sleep(for: .seconds(seconds))
        outcome.reject(with: TestTimedOut())
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await outcome.future.value
}
