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

    /// A handle to give back, removed from the multi handle first when `inMulti`.
    struct Release {
        var handle: Handle
        var inMulti: Bool
    }

    /// An event that cannot happen here happened (release builds only; debug builds trap).
    struct Violation {
        /// What happened, for the log.
        var message: String
        /// What ending the transfer, so that nothing is left behind, asks for.
        var ended: EndAction
        /// The continuation and handle the refused event brought, told and given back too.
        var notice: Notice?
        var release: Release?
    }

    /// For ``submit(_:)``.
    enum SubmitAction {
        /// Hand the transfer to the curl thread.
        case handToLoop
        /// It was cancelled first: resume the continuation with this error, and nothing else.
        case refuse(Continuation, any Error)
        case violation(Violation)
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
        case violation(Violation)
    }

    /// For ``startFailed(_:handle:)``.
    enum StartFailureAction {
        /// Give the handle back (it never joined the multi handle), then resume with the error.
        case fail(Continuation, any Error, giveBack: Handle?)
        case violation(Violation)
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
