extension CurlConnectAttemptState {
    /// What the awaiting task is told; the loop tells it once it is done with the handle and
    /// has published its statistics.
    enum Notice {
        /// Resume with the handle, its connection open.
        case connected(Continuation, Handle)
        case failure(Continuation, any Error)
    }

    /// An event that cannot happen here happened (release builds only; debug builds trap): the
    /// attempt was ended. What the refused event brought is in its action's `violation` case.
    struct Violation {
        /// What happened, for the log.
        var message: String
        /// What ending the attempt, so that nothing is left behind, asks for.
        var ended: EndAction
    }

    /// For ``submit(_:)``.
    enum SubmitAction {
        /// Hand the attempt to the curl thread.
        case handToLoop
        /// It was cancelled first: resume the continuation with this error, and nothing else.
        case refuse(Continuation, any Error)
        /// Perform the violation, then resume the continuation the submission brought with
        /// the error.
        case violation(Violation, refuse: Continuation, any Error)
    }

    /// For ``cancelRequested(_:)``.
    enum CancelAction {
        /// Not handed over yet, or over already: the submission is refused, or nothing is left.
        case none
        /// Ask the curl thread to end the attempt (``end(with:)``).
        case endOnLoop
    }

    /// For ``started(_:)``.
    enum StartAction {
        case none
        /// Perform the violation, then discard the handle the event brought.
        case violation(Violation, discard: Handle)
    }

    /// For ``startFailed(_:)``.
    enum StartFailureAction {
        /// Resume with the error; there is no handle to discard.
        case fail(Continuation, any Error)
        case violation(Violation)
    }

    /// For ``completed(_:)``.
    enum CompleteAction {
        /// Stop driving the handle's multi handle and leave the handle in it, where libcurl keeps
        /// the connection; then tell the notice, which hands the handle over.
        case handOver(Handle, then: Notice)
        /// Stop driving it, take the handle out (which closes whatever libcurl opened) and let it
        /// go; then tell the notice.
        case discard(Handle, then: Notice)
        case violation(Violation)
    }

    /// For ``end(with:)``.
    enum EndAction {
        /// Not handed over yet, or over already.
        case none
        /// No handle was added: only tell the notice.
        case notify(Notice)
        /// As ``CompleteAction/discard(_:then:)``.
        case discard(Handle, then: Notice)
    }
}
