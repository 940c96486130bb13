#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Courier

// Connect-only attempts, a WebSocket's connection being opened: the awaiting task's call, then
// the curl thread's work, which starts each in a multi handle of its own that this loop drives
// (see CurlConnectOnlyHandle for why not the loop's), finishes it when libcurl reports it done,
// and performs what its lifecycle decides.
extension CurlEventLoop {
    typealias AttemptState = CurlConnectAttempt.State

    /// Opens the connection `handle` is set up for (`CURLOPT_CONNECT_ONLY`: TCP, a proxy's tunnel,
    /// TLS) on this loop, with no thread of its own: its sockets wait in the loop's epoll set and
    /// libcurl's timeouts for it, `CURLOPT_CONNECTTIMEOUT_MS` among them, run on the loop's timer.
    /// Returns the handle with the connection open, which closes when the handle is released.
    ///
    /// Throws the `CurlError` libcurl ended the attempt with, in its detailed words;
    /// `URLError(.cancelled)` when the task is cancelled first, which closes whatever was opened;
    /// ``CurlError/transportShutDown`` when the loop shuts down first.
    func connect(_ handle: CurlEasyHandle, url: URL) async throws -> CurlConnectOnlyHandle {
        let attempt = CurlConnectAttempt(handle: handle, url: url)
        // The task waits on the loop's thread: it submits the attempt from there, so the loop
        // takes it only once the task waits, and the attempt's end resumes it there, with no
        // hop to another thread. Resumed on another thread before it waited, the task's frame
        // would be ordered only by atomics inside the concurrency runtime that
        // ThreadSanitizer does not see.
        return try await withTaskExecutorPreference(self) { try await self.awaitConnection(of: attempt) }
    }

    // Not a closure: only a nonisolated async function is sure to start on the preferred executor.
    private func awaitConnection(of attempt: CurlConnectAttempt) async throws -> CurlConnectOnlyHandle {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                submit(attempt, resuming: continuation)
            }
        } onCancel: {
            cancel(attempt, with: URLError.cancelled("the connection was cancelled", url: attempt.url))
        }
    }

    // MARK: Curl thread

    func start(_ attempt: CurlConnectAttempt) {
        var made: CurlConnectOnlyHandle?
        do {
            guard let easy = attempt.takeEasyHandle() else {
                throw CurlError(kind: .transfer, curlCode: 0, message: "internal error: the connect-only attempt has no handle")
            }
            let handle = try CurlConnectOnlyHandle(easy)
            made = handle
            try socketEvents.attach(handle.multi)
            try handle.addToMulti()
            connectAttempts[ObjectIdentifier(attempt)] = attempt
            perform(attempt.withState { $0.started(handle) }, for: attempt)
        } catch {
            if let made { discard(made, of: attempt) }
            perform(attempt.withState { $0.startFailed(error) }, for: attempt)
        }
    }

    /// Ends the attempts libcurl is done with, whichever way.
    func finishConnectAttempts() {
        guard !connectAttempts.isEmpty else { return }
        for attempt in Array(connectAttempts.values) {
            guard let handle = attempt.withState({ $0.handle }), let result = handle.connectResult() else { continue }
            let failure: CurlError? = switch result {
            case .success: nil
            case .failure(let error): error
            }
            perform(attempt.withState { $0.completed(failure) }, for: attempt)
        }
    }

    // MARK: Performing what the lifecycle decided

    // The loop lets go of the handle first; the awaiting task is told once the statistics are
    // published, so that a caller that reads them after its connect returns sees it gone.

    func perform(_ action: AttemptState.CompleteAction, for attempt: CurlConnectAttempt) {
        switch action {
        case .handOver(let handle, let notice):
            // Only the loop lets go: the handle stays in its multi handle, which keeps the
            // connection, and libcurl calls nothing of the loop's for it from now on.
            socketEvents.detach(handle.multi)
            connectAttempts[ObjectIdentifier(attempt)] = nil
            endedAttempts.append((attempt, notice))
        case .discard(let handle, let notice):
            discard(handle, of: attempt)
            endedAttempts.append((attempt, notice))
        case .violation(let violation):
            perform(violation, for: attempt)
        }
    }

    func perform(_ action: AttemptState.EndAction, for attempt: CurlConnectAttempt) {
        switch action {
        case .none:
            break
        case .notify(let notice):
            endedAttempts.append((attempt, notice))
        case .discard(let handle, let notice):
            discard(handle, of: attempt)
            endedAttempts.append((attempt, notice))
        }
    }

    private func perform(_ action: AttemptState.StartAction, for attempt: CurlConnectAttempt) {
        switch action {
        case .none:
            break
        case .violation(let violation, let handle):
            perform(violation, for: attempt)
            discard(handle, of: attempt)
        }
    }

    private func perform(_ action: AttemptState.StartFailureAction, for attempt: CurlConnectAttempt) {
        switch action {
        case .fail(let continuation, let error):
            endedAttempts.append((attempt, .failure(continuation, error)))
        case .violation(let violation):
            perform(violation, for: attempt)
        }
    }

    /// Ends the attempt so nothing is left behind and says what happened; the caller then
    /// discards what the refused event brought.
    private func perform(_ violation: AttemptState.Violation, for attempt: CurlConnectAttempt) {
        perform(violation.ended, for: attempt)
        violations += 1
        FileHandle.standardError.write(Data("CourierCurl: \(violation.message); the connection attempt was ended\n".utf8))
    }

    /// Stops driving the handle's multi handle, then takes the handle out of it, which closes
    /// what libcurl opened; the handle and its multi handle go with the action, on this thread.
    private func discard(_ handle: CurlConnectOnlyHandle, of attempt: CurlConnectAttempt) {
        socketEvents.detach(handle.multi)
        handle.removeFromMulti()
        connectAttempts[ObjectIdentifier(attempt)] = nil
    }

    func resumeEndedAttempts() {
        guard !endedAttempts.isEmpty else { return }
        for (attempt, notice) in endedAttempts {
            attempt.deliver(notice)
        }
        endedAttempts.removeAll(keepingCapacity: true)
    }
}
