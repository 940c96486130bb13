extension CurlTransferState {
    /// What the awaiting task, or the reader of a streamed body, is told; the loop tells it once
    /// it is done with the handle and has published its statistics.
    enum Notice {
        /// Resume with the whole exchange: the transfer completed without streaming.
        case exchange(Continuation)
        /// Resume with the response head; the body follows through the reader.
        case head(Continuation)
        case failure(Continuation, any Error)
        /// End the streamed body: it is complete.
        case bodyFinished
        case bodyFailed(any Error)
    }

    /// An event that cannot happen here happened (release builds only; debug builds trap): the
    /// transfer was ended. What the refused event brought is in its action's `violation` case.
    struct Violation {
        /// What happened, for the log.
        var message: String
        /// What ending the transfer, so that nothing is left behind, asks for.
        var ended: EndAction
    }

    /// For ``submit(_:)``.
    enum SubmitAction {
        /// Hand the transfer to the curl thread.
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
        /// Ask the curl thread to end the transfer (``end(with:)``).
        case endOnLoop
    }

    /// For ``started(_:)``.
    enum StartAction {
        case none
        /// Perform the violation, then remove the handle, which joined the multi handle, and
        /// give it back.
        case violation(Violation, remove: Handle)
    }

    /// For ``startFailed(_:handle:)``.
    enum StartFailureAction {
        /// Give the handle back (it never joined the multi handle), then resume with the error.
        case fail(Continuation, any Error, giveBack: Handle?)
        /// Perform the violation, then give the handle taken, if any, back.
        case violation(Violation, giveBack: Handle?)
    }

    /// For ``headReceived()``, inside the header callback.
    enum HeadAction {
        case none
        /// Resume the awaiting task with the head now.
        case handOverHead(Continuation)
        /// The event was impossible: the callback stops the transfer.
        case abort(violation: String)
    }

    /// For ``readerFull()`` and ``uploadStarved()``, inside a data callback.
    enum PauseAction {
        /// The direction is paused: the callback returns libcurl's pause code.
        case paused
        /// The event was impossible: the callback stops the transfer.
        case abort(violation: String)
    }

    /// For ``readerDrained()`` and ``uploadReadable()``.
    enum UnpauseAction {
        case none
        /// `curl_easy_pause` the handle to the directions still paused.
        case repause(Handle, receive: Bool, send: Bool)
    }

    /// For ``completed(_:)``.
    enum CompleteAction {
        /// Remove the handle from the multi handle, give it back, then tell the notice.
        case remove(Handle, then: Notice)
        case violation(Violation)
    }

    /// For ``end(with:)``.
    enum EndAction {
        /// Not handed over yet, or over already.
        case none
        /// No handle was taken: only tell the notice.
        case notify(Notice)
        /// Remove the handle from the multi handle, give it back, then tell the notice.
        case remove(Handle, then: Notice)
    }
}
