/// The lifecycle of one transfer as a value, and the only record of it: whether it waits, runs,
/// streams its body or has ended; which continuation waits for it; which easy handle runs it;
/// which directions are paused.
///
/// Each event returns an ``Action``; the event loop performs it and keeps no copy of what it
/// says. A continuation leaves the state in the transition that resumes it, and a handle in the
/// transition that gives it back, so each happens exactly once whatever the order of events.
/// Generic over both so every order is tested without libcurl or a socket.
///
/// An event that cannot happen in the current state (libcurl reporting a transfer done twice,
/// a head after the end) is a bug in the engine: it traps in debug builds. In release builds it
/// is reported through ``Action/violation`` and cleaned up: an event from the curl thread's loop
/// ends the transfer with an error, releasing what it holds; an event from inside a libcurl
/// callback leaves the state alone and the callback aborts the transfer, so that libcurl
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

    /// What the awaiting task gets.
    enum Resumption {
        /// The whole exchange: the transfer completed without streaming.
        case exchange
        /// The response head; the body follows through the reader.
        case head
        case failure(any Error)
    }

    /// What happens to the reader of a streamed body.
    enum BodyEnding {
        case finish
        case fail(any Error)
    }

    struct Action {
        /// Resume this continuation so.
        var resume: (Continuation, Resumption)?
        /// End the streamed body so.
        var body: BodyEnding?
        /// Remove this handle from the multi handle (when `inMulti`) and give it back.
        var release: (handle: Handle, inMulti: Bool)?
        /// `curl_easy_pause` this handle to the directions left paused.
        var repause: (handle: Handle, receive: Bool, send: Bool)?
        /// An event that cannot happen here happened (release builds only; debug traps): what,
        /// and the continuation and handle that event brought, which are resumed and given back
        /// too.
        var violation: String?
        var violationResume: (Continuation, Resumption)?
        var violationRelease: (handle: Handle, inMulti: Bool)?

        static var none: Action { Action() }
    }

    private enum State {
        case created
        case cancelledEarly(any Error)
        case queued(Continuation)
        case running(Continuation, Handle)
        case streaming(Handle)
        case finished
    }

    private var state = State.created
    /// Whether the body is streamed to a reader rather than collected.
    let streams: Bool
    /// Receiving is paused because the reader's buffer is full.
    private(set) var receivePaused = false
    /// Sending is paused because the upload's producer has nothing buffered.
    private(set) var sendPaused = false

    init(streams: Bool) {
        self.streams = streams
    }

    var phase: Phase {
        switch state {
        case .created: .created
        case .cancelledEarly, .finished: .finished
        case .queued: .queued
        case .running: .running
        case .streaming: receivePaused ? .pausedByBackPressure : .streaming
        }
    }

    /// The easy handle running the transfer, while one does.
    var handle: Handle? {
        switch state {
        case .running(_, let handle), .streaming(let handle): handle
        default: nil
        }
    }

    /// Whether libcurl may be waiting on the reader or the producer rather than on the server:
    /// the idle timeout does not run then.
    var isPaused: Bool { receivePaused || sendPaused }

    // MARK: Any thread

    /// The awaiting task hands the transfer over; false when it must not be: it was cancelled
    /// first, and the continuation is to be resumed as the action says.
    mutating func submit(_ continuation: Continuation) -> (submit: Bool, action: Action) {
        switch state {
        case .created:
            state = .queued(continuation)
            return (true, .none)
        case .cancelledEarly(let error):
            state = .finished
            return (false, Action(resume: (continuation, .failure(error))))
        default:
            return (false, violation("submit", resume: (continuation, .failure(CurlError.transportShutDown))))
        }
    }

    /// The awaiting task was cancelled. True when the curl thread must be told (``end(with:)``);
    /// a transfer not yet submitted is refused at submission instead.
    mutating func cancelRequested(_ error: any Error) -> Bool {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return false
        case .cancelledEarly, .finished:
            return false
        case .queued, .running, .streaming:
            return true
        }
    }

    // MARK: Curl thread

    /// The curl thread took the submission: true when a handle is to be made ready for it.
    mutating func shouldStart() -> Bool {
        if case .queued = state { return true }
        return false
    }

    /// The handle was configured and added to the multi handle.
    mutating func started(_ handle: Handle) -> Action {
        guard case .queued(let continuation) = state else {
            return violation("started", release: (handle, true))
        }
        state = .running(continuation, handle)
        return .none
    }

    /// Configuring or adding the handle failed; `handle` is the one taken, if any.
    mutating func startFailed(_ error: any Error, handle: Handle?) -> Action {
        guard case .queued(let continuation) = state else {
            return violation("startFailed", release: handle.map { ($0, false) })
        }
        state = .finished
        return Action(resume: (continuation, .failure(error)), release: handle.map { ($0, false) })
    }

    /// The final response's head is complete and the body is streamed: the awaiting task gets
    /// the head now. Without streaming nothing happens: the head waits for the body.
    mutating func headReceived() -> Action {
        guard streams else { return .none }
        switch state {
        case .running(let continuation, let handle):
            state = .streaming(handle)
            return Action(resume: (continuation, .head))
        case .streaming, .finished:
            // libcurl calls the header callback for trailers too; they are not a new head.
            return .none
        default:
            return callbackViolation("headReceived")
        }
    }

    /// The reader's buffer is full: receiving pauses (the write callback returns
    /// `CURL_WRITEFUNC_PAUSE` from now on).
    mutating func readerFull() -> Action {
        guard case .streaming = state else { return callbackViolation("readerFull") }
        receivePaused = true
        return .none
    }

    /// The reader caught up: receiving goes on.
    mutating func readerDrained() -> Action {
        guard case .streaming(let handle) = state, receivePaused else { return .none }
        receivePaused = false
        return Action(repause: (handle, receivePaused, sendPaused))
    }

    /// The upload's producer has nothing buffered: the read callback returns
    /// `CURL_READFUNC_PAUSE`.
    mutating func uploadStarved() -> Action {
        switch state {
        case .running, .streaming:
            sendPaused = true
            return .none
        default:
            return callbackViolation("uploadStarved")
        }
    }

    /// The upload's producer buffered more: sending goes on.
    mutating func uploadReadable() -> Action {
        guard sendPaused else { return .none }
        switch state {
        case .running(_, let handle), .streaming(let handle):
            sendPaused = false
            return Action(repause: (handle, receivePaused, sendPaused))
        default:
            return .none
        }
    }

    /// libcurl reports the transfer done: `failure` is nil when it completed.
    mutating func completed(_ failure: (any Error)?) -> Action {
        switch state {
        case .running(let continuation, let handle):
            state = .finished
            return Action(resume: (continuation, failure.map { .failure($0) } ?? .exchange), release: (handle, true))
        case .streaming(let handle):
            state = .finished
            return Action(body: failure.map { .fail($0) } ?? .finish, release: (handle, true))
        default:
            return violation("completed")
        }
    }

    /// The transfer ends without libcurl finishing it: cancelled, overdue, or the transport
    /// shuts down. Nothing happens once it has ended.
    mutating func end(with error: any Error) -> Action {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return .none
        case .queued(let continuation):
            state = .finished
            return Action(resume: (continuation, .failure(error)))
        case .running(let continuation, let handle):
            state = .finished
            return Action(resume: (continuation, .failure(error)), release: (handle, true))
        case .streaming(let handle):
            state = .finished
            return Action(body: .fail(error), release: (handle, true))
        case .cancelledEarly, .finished:
            return .none
        }
    }

    /// Refuses an impossible event from inside a callback: traps in debug builds; in release
    /// builds says what happened, and the callback aborts the transfer.
    private func callbackViolation(_ event: String) -> Action {
        let message = "CurlTransferState: \(event) in phase \(phase)"
        assertionFailure(message)
        return Action(violation: message)
    }

    /// Refuses an impossible event from the loop: traps in debug builds; in release builds ends
    /// the transfer so nothing is left behind, and says what happened.
    private mutating func violation(
        _ event: String, resume: (Continuation, Resumption)? = nil, release: (Handle, Bool)? = nil
    ) -> Action {
        let message = "CurlTransferState: \(event) in phase \(phase)"
        assertionFailure(message)
        var action = end(with: CurlError(kind: .transfer, curlCode: 0, message: "internal error: \(message)"))
        action.violation = message
        action.violationResume = resume
        action.violationRelease = release.map { ($0.0, $0.1) }
        return action
    }
}
