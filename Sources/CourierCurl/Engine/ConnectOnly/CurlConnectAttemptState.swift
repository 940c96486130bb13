/// The lifecycle of one attempt to open a `CURLOPT_CONNECT_ONLY` connection on an event loop, as
/// a value, and the only record of it: whether it waits for the loop, connects or has ended;
/// which continuation waits for it; which handle libcurl drives for it.
///
/// The shape of ``CurlTransferState``: each event returns an action of its own
/// (CurlConnectAttemptState+Actions.swift) whose cases say exactly what the loop must do. The
/// continuation leaves the state in the transition that resumes it, and the handle in the
/// transition that hands it over or discards it, so each happens exactly once whatever the order
/// of events (a cancellation racing the connection's end, a shutdown). Unlike a transfer's, a
/// handle that connected does not go back to the loop: it goes to the awaiting task, with the
/// connection in it. Generic over both so every order is tested without libcurl or a socket.
///
/// An event that cannot happen in the current state is a bug in the engine: it traps in debug
/// builds; in release builds it ends the attempt with an error, discarding what it holds
/// (``Violation``).
struct CurlConnectAttemptState<Continuation, Handle> {
    /// Where the attempt is, for tests and statistics.
    enum Phase: Equatable, Sendable {
        /// Built, not yet handed to the curl thread.
        case created
        /// Handed to the curl thread, its handle not yet in a multi handle.
        case queued
        /// libcurl opens the connection.
        case connecting
        case finished
    }

    private enum State {
        case created
        case cancelledEarly(any Error)
        case queued(Continuation)
        case connecting(Continuation, Handle)
        case finished
    }

    private var state = State.created

    var phase: Phase {
        switch state {
        case .created: .created
        case .queued: .queued
        case .connecting: .connecting
        case .cancelledEarly, .finished: .finished
        }
    }

    /// The handle libcurl connects, while it does.
    var handle: Handle? {
        if case .connecting(_, let handle) = state { return handle }
        return nil
    }

    // MARK: Any thread

    /// The awaiting task hands the attempt over.
    mutating func submit(_ continuation: Continuation) -> SubmitAction {
        switch state {
        case .created:
            state = .queued(continuation)
            return .handToLoop
        case .cancelledEarly(let error):
            state = .finished
            return .refuse(continuation, error)
        default:
            return .violation(violation("submit"), refuse: continuation, CurlError.transportShutDown)
        }
    }

    /// The awaiting task was cancelled; an attempt not yet submitted is refused at submission.
    mutating func cancelRequested(_ error: any Error) -> CancelAction {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return .none
        case .cancelledEarly, .finished:
            return .none
        case .queued, .connecting:
            return .endOnLoop
        }
    }

    // MARK: Curl thread

    /// The curl thread took the submission: true when its handle is to be put in a multi handle.
    func shouldStart() -> Bool {
        if case .queued = state { return true }
        return false
    }

    /// The handle was added to its multi handle, which the loop now drives.
    mutating func started(_ handle: Handle) -> StartAction {
        guard case .queued(let continuation) = state else {
            return .violation(violation("started"), discard: handle)
        }
        state = .connecting(continuation, handle)
        return .none
    }

    /// Making the multi handle, or adding the handle to it, failed; the loop discarded what it made.
    mutating func startFailed(_ error: any Error) -> StartFailureAction {
        guard case .queued(let continuation) = state else {
            return .violation(violation("startFailed"))
        }
        state = .finished
        return .fail(continuation, error)
    }

    /// libcurl reports the attempt done: `failure` is nil when the connection is open.
    mutating func completed(_ failure: (any Error)?) -> CompleteAction {
        guard case .connecting(let continuation, let handle) = state else {
            return .violation(violation("completed"))
        }
        state = .finished
        if let failure { return .discard(handle, then: .failure(continuation, failure)) }
        return .handOver(handle, then: .connected(continuation, handle))
    }

    /// The attempt ends before libcurl finished it: cancelled, or the loop shuts down. Nothing
    /// happens once it has ended.
    mutating func end(with error: any Error) -> EndAction {
        switch state {
        case .created:
            state = .cancelledEarly(error)
            return .none
        case .queued(let continuation):
            state = .finished
            return .notify(.failure(continuation, error))
        case .connecting(let continuation, let handle):
            state = .finished
            return .discard(handle, then: .failure(continuation, error))
        case .cancelledEarly, .finished:
            return .none
        }
    }

    /// Refuses an impossible event: traps in debug builds; in release builds ends the attempt so
    /// nothing is left behind, and says what happened.
    private mutating func violation(_ event: String) -> Violation {
        let message = "CurlConnectAttemptState: \(event) in phase \(phase)"
        assertionFailure(message)
        let ended = end(with: CurlError(kind: .transfer, curlCode: 0, message: "internal error: \(message)"))
        return Violation(message: message, ended: ended)
    }
}
