import Foundation

/// The `timeoutInterval` the caller chose for the requests of one call, carried beside them
/// rather than in them.
///
/// A `URLRequest` cannot say whether its `timeoutInterval` of 60 s was chosen or is what
/// `URLRequest(url:)` gave it. FoundationNetworking tells the two apart with a flag its setter
/// raises, which no other code can read, so a chosen 60 s would count as unset. ``Request``'s
/// `timeoutInterval` is typed (`nil` means the policy): the shared code that sends one marks
/// its value as chosen around the call, and both engines read the mark when they start an
/// exchange (`URLRequest.idleTimeout(under:)`), the way they read
/// ``ResponseBodyDestination``.
///
/// The mark vouches only for a request whose `timeoutInterval` is that value: a request a layer
/// sends for another purpose inside the call (a token refresh) keeps its own, and an
/// ``APIClient`` call inside marks its own.
package enum ChosenTimeoutInterval {
    /// The interval chosen for the current task's call; nil when it chose none.
    @TaskLocal package static var current: TimeInterval?

    /// Runs `call` with `interval` marked as chosen, or with no mark when it is nil.
    package static func during<Value, Failure: Error>(
        _ interval: TimeInterval?, _ call: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        // Most calls choose none inside a call that chose none: nothing to mark or to clear, and
        // binding a task-local costs an allocation per call.
        if interval == nil, current == nil { return try await call() }
        // TaskLocal.withValue only rethrows an untyped error; the result carries the typed one
        // across it.
        let result: Result<Value, Failure> = await $current.withValue(interval) {
            do throws(Failure) { return .success(try await call()) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
