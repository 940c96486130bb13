#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Cancels the requests in flight, refuses new ones and releases the session; returns once
    /// the session is invalid and every request in flight has ended.
    ///
    /// Requests in flight, and requests sent afterwards, throw `URLError(.cancelled)` saying
    /// that the transport was shut down; a body being read ends with `URLError(.cancelled)`.
    /// Without this call a session lives as long as the process: `URLSession` keeps its
    /// delegate, and so itself, until it is invalidated. Calling it again does nothing more.
    ///
    /// A transport made with ``init(session:)`` invalidates that session too, and returns
    /// without waiting for its tasks, which report to the session's own delegate.
    public func shutdown() async {
        let delegate = delegate
        tasks.shutDown(session) {
            delegate?.stopAll(with: { Self.shutDownError(url: $0) })
        }
        await delegate?.invalidation()
    }

    /// The error of a request that a shut-down transport ended or refused.
    static func shutDownError(url: URL?) -> URLError {
        URLError(.cancelled, "the URLSessionTransport was shut down before the request finished", url: url)
    }
}
