/// The lifecycle of one transfer as a value, and the only record of it: whether it waits, runs,
/// streams its body or has ended; whether its head waits for the body; which continuation waits
/// for it; which easy handle runs it; which directions are paused.
///
/// Each event returns an action of its own (CurlTransferState+Actions.swift) whose cases say
/// exactly what the caller must do; the event loop performs it and keeps no copy of what it
/// says. A continuation leaves the state in the transition that resumes it, and a handle in the
/// transition that gives it back, so each happens exactly once whatever the order of events.
/// Generic over both so every order is tested without libcurl or a socket.
///
/// An event that cannot happen in the current state (libcurl reporting a transfer done twice,
/// a head after the end) is a bug in the engine: it traps in debug builds. In release builds it
/// is reported as a violation and cleaned up: an event from the curl thread's loop ends the
/// transfer with an error, releasing what it holds and what the event brought (the
/// `violation` case of the event's action); an event from inside a
/// libcurl callback leaves the state alone and the callback aborts the transfer, so that libcurl
/// reports it done and ``completed(_:)`` releases it.
struct CurlTransferState<Continuation, Handle> {
    /// Where the transfer is, for tests and statistics.
    enum Phase: Equatable, Sendable {
        /// Built, not yet handed to the curl thread.
        case created
        /// Handed to the curl thread, no easy handle yet.
        case queued
        /// In the multi handle; nobody has the response head yet.
        case running
        /// The head was handed over; body bytes go to the reader.
        case streaming
        /// Streaming, with receiving paused until the reader catches up.
        case pausedByBackPressure
        case finished
    }

    /// `streams`: the head goes to the awaiting task as soon as it is complete, and the body to
    /// a reader; otherwise the task waits for the whole exchange.
    private enum State {
        case created(streams: Bool)
        case cancelledEarly(any Error)
        case queued(Continuation, streams: Bool)
        /// `sendPaused`: the upload's producer has nothing buffered.
        case running(Continuation, Handle, streams: Bool, sendPaused: Bool)
        /// `receivePaused`: the reader's buffer is full.
        case streaming(Handle, receivePaused: Bool, sendPaused: Bool)
        case finished
    }

    private var state: State

    init(streams: Bool) {
        state = .created(streams: streams)
    }

    var phase: Phase {
        switch state {
        case .created: .created
        case .cancelledEarly, .finished: .finished
        case .queued: .queued
        case .running: .running
        case .streaming(_, let receivePaused, _): receivePaused ? .pausedByBackPressure : .streaming
        }
    }

    /// The easy handle running the transfer, while one does.
    var handle: Handle? {
        switch state {
        case .running(_, let handle, _, _), .streaming(let handle, _, _): handle
        default: nil
        }
    }

    /// Receiving is paused because the reader's buffer is full.
    var receivePaused: Bool {
        if case .streaming(_, receivePaused: true, _) = state { true } else { false }
    }

    /// Whether libcurl may be waiting on the reader or the producer rather than on the server:
    /// the idle timeout does not run then.
    var isPaused: Bool {
        switch state {
        case .running(_, _, _, let sendPaused): sendPaused
        case .streaming(_, let receivePaused, let sendPaused): receivePaused || sendPaused
        default: false
        }
    }

    // MARK: Any thread

    /// The awaiting task hands the transfer over.
    mutating func submit(_ continuation: Continuation) -> SubmitAction {
        switch state {
        case .created(let streams):
            state = .queued(continuation, streams: streams)
            return .handToLoop
        case .cancelledEarly(let error):
            state = .finished
            return .refuse(continuation, error)
        default:
            return .violation(violation("submit"), refuse: continuation, CurlError.transportShutDown)
        }
    }

    /// The awaiting task was cancelled; a transfer not yet submitted is refused at submission.
    mutating func cancelRequested(_ error: any Error) -> CancelAction {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return .none
        case .cancelledEarly, .finished:
            return .none
        case .queued, .running, .streaming:
            return .endOnLoop
        }
    }

    // MARK: Curl thread

    /// The curl thread took the submission: true when a handle is to be made ready for it.
    func shouldStart() -> Bool {
        if case .queued = state { return true }
        return false
    }

    /// The handle was configured and added to the multi handle.
    mutating func started(_ handle: Handle) -> StartAction {
        guard case .queued(let continuation, let streams) = state else {
            return .violation(violation("started"), remove: handle)
        }
        state = .running(continuation, handle, streams: streams, sendPaused: false)
        return .none
    }

    /// Configuring or adding the handle failed; `handle` is the one taken, if any.
    mutating func startFailed(_ error: any Error, handle: Handle?) -> StartFailureAction {
        guard case .queued(let continuation, _) = state else {
            return .violation(violation("startFailed"), giveBack: handle)
        }
        state = .finished
        return .fail(continuation, error, giveBack: handle)
    }

    /// The final response's head is complete and the body is streamed: the awaiting task gets
    /// the head now. Without streaming nothing happens: the head waits for the body.
    mutating func headReceived() -> HeadAction {
        switch state {
        case .running(_, _, streams: false, _):
            return .none
        case .running(let continuation, let handle, streams: true, let sendPaused):
            state = .streaming(handle, receivePaused: false, sendPaused: sendPaused)
            return .handOverHead(continuation)
        case .created(streams: false), .queued(_, streams: false):
            return .none
        case .streaming, .finished:
            // libcurl calls the header callback for trailers too; they are not a new head.
            return .none
        default:
            return .abort(violation: callbackViolation("headReceived"))
        }
    }

    /// The reader's buffer is full: receiving pauses (the write callback returns
    /// `CURL_WRITEFUNC_PAUSE` from now on).
    mutating func readerFull() -> PauseAction {
        guard case .streaming(let handle, _, let sendPaused) = state else {
            return .abort(violation: callbackViolation("readerFull"))
        }
        state = .streaming(handle, receivePaused: true, sendPaused: sendPaused)
        return .paused
    }

    /// The reader caught up: receiving goes on.
    mutating func readerDrained() -> UnpauseAction {
        guard case .streaming(let handle, receivePaused: true, let sendPaused) = state else { return .none }
        state = .streaming(handle, receivePaused: false, sendPaused: sendPaused)
        return .repause(handle, receive: false, send: sendPaused)
    }

    /// The upload's producer has nothing buffered: the read callback returns
    /// `CURL_READFUNC_PAUSE`.
    mutating func uploadStarved() -> PauseAction {
        switch state {
        case .running(let continuation, let handle, let streams, _):
            state = .running(continuation, handle, streams: streams, sendPaused: true)
            return .paused
        case .streaming(let handle, let receivePaused, _):
            state = .streaming(handle, receivePaused: receivePaused, sendPaused: true)
            return .paused
        default:
            return .abort(violation: callbackViolation("uploadStarved"))
        }
    }

    /// The upload's producer buffered more: sending goes on.
    mutating func uploadReadable() -> UnpauseAction {
        switch state {
        case .running(let continuation, let handle, let streams, sendPaused: true):
            state = .running(continuation, handle, streams: streams, sendPaused: false)
            return .repause(handle, receive: false, send: false)
        case .streaming(let handle, let receivePaused, sendPaused: true):
            state = .streaming(handle, receivePaused: receivePaused, sendPaused: false)
            return .repause(handle, receive: receivePaused, send: false)
        default:
            return .none
        }
    }

    /// libcurl reports the transfer done: `failure` is nil when it completed.
    mutating func completed(_ failure: (any Error)?) -> CompleteAction {
        switch state {
        case .running(let continuation, let handle, _, _):
            state = .finished
            return .remove(handle, then: failure.map { .failure(continuation, $0) } ?? .exchange(continuation))
        case .streaming(let handle, _, _):
            state = .finished
            return .remove(handle, then: failure.map { .bodyFailed($0) } ?? .bodyFinished)
        default:
            return .violation(violation("completed"))
        }
    }

    /// The transfer ends without libcurl finishing it: cancelled, overdue, or the transport
    /// shuts down. Nothing happens once it has ended.
    mutating func end(with error: any Error) -> EndAction {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return .none
        case .queued(let continuation, _):
            state = .finished
            return .notify(.failure(continuation, error))
        case .running(let continuation, let handle, _, _):
            state = .finished
            return .remove(handle, then: .failure(continuation, error))
        case .streaming(let handle, _, _):
            state = .finished
            return .remove(handle, then: .bodyFailed(error))
        case .cancelledEarly, .finished:
            return .none
        }
    }

    /// Refuses an impossible event from inside a callback: traps in debug builds; in release
    /// builds says what happened, and the callback aborts the transfer.
    private func callbackViolation(_ event: String) -> String {
        let message = "CurlTransferState: \(event) in phase \(phase)"
        assertionFailure(message)
        return message
    }

    /// Refuses an impossible event from the loop: traps in debug builds; in release builds ends
    /// the transfer so nothing is left behind, and says what happened. What the event brought
    /// (a continuation, a handle) its action's `violation` case carries besides.
    private mutating func violation(_ event: String) -> Violation {
        let message = "CurlTransferState: \(event) in phase \(phase)"
        assertionFailure(message)
        let ended = end(with: CurlError(kind: .transfer, curlCode: 0, message: "internal error: \(message)"))
        return Violation(message: message, ended: ended)
    }
}
