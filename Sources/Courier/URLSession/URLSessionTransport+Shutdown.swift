#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Cancels the requests in flight, refuses new ones and releases the session; returns once
    /// the session is invalid, or after a second at most.
    ///
    /// Requests in flight, and requests sent afterwards, throw `URLError(.cancelled)` saying
    /// that the transport was shut down; a body being read ends with `URLError(.cancelled)`.
    /// Each gets its error at once. FoundationNetworking invalidates the session only once every
    /// task has ended, and a cancel reaches a task only after libcurl has decoded the burst in
    /// hand, which for a compression bomb takes as long as the bomb lasts: past the wait, such a
    /// task goes on in the background, one thread busy and no caller waiting, and the session is
    /// released when it ends. Without this call a session lives as long as the process:
    /// `URLSession` keeps its delegate, and so itself, until it is invalidated. Calling it again
    /// does nothing more.
    ///
    /// A transport made with ``init(session:)`` invalidates that session too, and returns
    /// without waiting for its tasks, which report to the session's own delegate.
    public func shutdown() async {
        let delegate = delegate
        tasks.shutDown(session) {
            delegate?.stopAll(with: { Self.shutDownError(url: $0) })
        }
        await delegate?.invalidation(within: Self.shutdownWait)
    }

    /// The longest ``shutdown()`` waits for FoundationNetworking to invalidate the session.
    package static let shutdownWait = Duration.seconds(1)

    /// The error of a request that a shut-down transport ended or refused.
    static func shutDownError(url: URL?) -> URLError {
        URLError.cancelled("the URLSessionTransport was shut down before the request finished", url: url)
    }
}
