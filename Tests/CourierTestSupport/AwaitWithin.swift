import Courier

/// Thrown by ``awaitWithin(seconds:_:)`` when the body did not return in time.
public struct TestTimedOut: Error {}

/// Runs `body`, failing with ``TestTimedOut`` instead of hanging the suite if it does not return
/// in time.
///
/// The limit tells a hang from a slow machine, nothing more: passing tests finish in
/// milliseconds, but a sanitizer run on a loaded 2-core machine has taken tens of seconds over
/// bodies that return, so the default is ``TestRun/hangLimit``. A test that is about how long
/// something takes asserts that itself; it does not lean on this limit.
///
/// The two racers are unstructured tasks so that a timeout returns even when `body` ignores
/// cancellation (as a broken implementation under test would).
public func awaitWithin<T: Sendable>(
    seconds: Double? = nil,
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let limit = seconds.map { Duration.seconds($0) } ?? TestRun.hangLimit
    let outcome = Promise<T>()
    let work = Task {
        do {
            outcome.resolve(with: try await body())
        } catch {
            outcome.reject(with: error)
        }
    }
    let timer = Task {
        try await Task.sleep(for: limit)
        outcome.reject(with: TestTimedOut())
    }
    defer {
        work.cancel()
        timer.cancel()
    }
    return try await outcome.future.value
}
