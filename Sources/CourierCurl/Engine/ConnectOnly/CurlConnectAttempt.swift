import Courier
import Foundation

/// One attempt to open a `CURLOPT_CONNECT_ONLY` connection on an event loop (see
/// CurlEventLoop+ConnectAttempts.swift): the configured easy handle until the loop takes it, the
/// URL a cancellation names, and the lifecycle (``CurlConnectAttemptState``), under a lock since
/// the awaiting task submits and cancels from its own thread.
final class CurlConnectAttempt: @unchecked Sendable {
    typealias Continuation = UnsafeContinuation<CurlConnectOnlyHandle, any Error>
    typealias State = CurlConnectAttemptState<Continuation, CurlConnectOnlyHandle>

    let url: URL
    private let lifecycle = Locked(State())
    /// Set up by the awaiting task, then taken by the curl thread when it starts the attempt;
    /// the submission, through the loop's locked inbox, is between the two.
    private var easy: CurlEasyHandle?

    init(handle: CurlEasyHandle, url: URL) {
        easy = handle
        self.url = url
    }

    /// The easy handle, for the curl thread to start the attempt with; nil once taken.
    func takeEasyHandle() -> CurlEasyHandle? {
        defer { easy = nil }
        return easy
    }

    /// Applies one lifecycle event under the lock.
    func withState<Result>(_ event: (inout State) -> Result) -> Result {
        lifecycle.withLock(event)
    }

    var phase: State.Phase { lifecycle.withLock { $0.phase } }

    /// Resumes the awaiting task as the notice says.
    func deliver(_ notice: State.Notice) {
        switch notice {
        case .connected(let continuation, let handle): continuation.resume(returning: handle)
        case .failure(let continuation, let error): continuation.resume(throwing: error)
        }
    }

    /// Tells what ending the attempt asks for from outside the curl thread, where it never got a
    /// handle.
    func deliverOffLoop(_ action: State.EndAction) {
        switch action {
        case .none: break
        case .notify(let notice), .discard(_, let notice): deliver(notice)
        }
    }
}
