#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// The lifecycle of one task as a value: each event returns an action that says exactly what
    /// to do, and the ``Exchange`` that holds the state under a lock does only that, outside it.
    ///
    /// The awaiting task, its cancellation handler, the body's reader and the session's delegate
    /// queue send events in any order. The continuation leaves the state in the one transition
    /// that resumes it, and the task is cancelled at most once. A task stopped early (a cancel, a
    /// refusal, the body limit, the idle timeout, a shutdown) answers at once, the caller or the
    /// body's reader, without waiting for FoundationNetworking to report the task's end: a cancel
    /// reaches libcurl only after the burst it is decoding, which for a compression bomb takes
    /// seconds. Generic over the task and the continuation so that every order is tested without
    /// a socket.
    ///
    /// When the body is collected the caller waits for the task's end and the bytes are kept
    /// here. When it is streamed the caller waits for the head only; once it arrives the
    /// continuation leaves the state and the bytes go to the body's reader. There is no paused
    /// state: FoundationNetworking cannot pause a transfer. Its `suspend()` takes the easy handle
    /// off libcurl's multi handle, which was measured to either not stop the bytes at all or to
    /// abort the transfer, `resume()` then sending the request again on a new connection and
    /// delivering the body from its first byte a second time. A slow reader's unread bytes
    /// therefore wait in the body's buffer, bounded by ``Configuration/maximumUnreadBytes``.
    struct ExchangeState<Task, Continuation> {
        /// Where the body goes.
        enum Mode {
            /// Kept here; the caller gets it whole when the task ends.
            case collect
            /// Handed to a reader as it arrives; the caller gets the head.
            case stream
        }

        private enum State {
            case created
            /// Stopped before the task existed (cancelled, or idle too long waiting for it);
            /// ``start(_:continuation:)`` stops the task at once.
            case stoppedEarly(URLError)
            /// The task runs and the caller waits, with the bytes collected so far (none when
            /// streaming, whose bytes before the head are dropped).
            case running(Task, Continuation, collected: Data)
            /// Streaming only: the caller has the head, and the body goes to its reader.
            case streaming(Task, StreamedBody)
            /// The caller has its answer, or the body its end; the task may still be reporting.
            case finished
        }

        /// What a streamed body counted so far, and why it was stopped if it was.
        private struct StreamedBody {
            var received = 0
            var stop: URLError?
        }

        /// What ``start(_:continuation:)``, ``cancel(with:)`` and ``stop(with:)`` ask for.
        enum StopAction {
            case none
            /// The caller waits: answer it with the error now, and cancel the task.
            case answer(Continuation, URLError, Task)
            /// The body is being read: fail it with the error, and cancel the task.
            case failBody(URLError, Task)
        }

        /// What to do with a head that arrived and was allowed.
        enum HeadAction {
            /// Nothing: the caller waits for the end, or has its answer already.
            case none
            /// Resume the caller with the head; the body follows.
            case deliver(Continuation)
        }

        /// What to do with bytes that arrived.
        enum ReceiveAction {
            /// They were kept here.
            case collected
            /// Write them to the body.
            case write
            /// Drop them: the exchange was stopped already, or no head came before them.
            case drop
            /// They pass the limit: stop as ``StopAction`` says.
            case stop(StopAction)
        }

        /// What to do when the body's reader went away before the end.
        enum ReaderCancelAction {
            case none
            /// Cancel the task; the body has its end already.
            case cancelTask(Task)
        }

        /// How the task's end reaches the caller or the body.
        enum CompleteAction {
            /// Nothing: whoever waited has an answer already.
            case none
            /// Resume the caller with this result: the collected bytes with the response, or an
            /// error.
            case answer(Continuation, Result<(Data, URLResponse), any Error>)
            /// The streamed body ends here.
            case finishBody
            /// The streamed body breaks off with this error.
            case failBody(any Error)
        }

        /// How the task ended, as the session reported it.
        struct Outcome {
            /// The whole body, when a completion handler rather than the delegate collected it.
            var data: Data?
            var response: URLResponse?
            var error: (any Error)?
            /// The response of an authentication challenge the delegate rejected.
            var challenged: HTTPURLResponse?
        }

        let mode: Mode
        private var state = State.created

        init(mode: Mode) {
            self.mode = mode
        }

        /// The task exists and the caller waits; a stop when the exchange was stopped before.
        mutating func start(_ task: Task, continuation: Continuation) -> StopAction {
            if case .stoppedEarly(let error) = state {
                state = .finished
                return .answer(continuation, error, task)
            }
            state = .running(task, continuation, collected: Data())
            return .none
        }

        /// The transport was shut down before the task was created: the caller is answered
        /// without one, and later events find the exchange ended.
        mutating func refuse() {
            state = .finished
        }

        /// The caller was cancelled. Once a streamed head was delivered the caller's task no
        /// longer owns the transfer (the body's reader does), so this does nothing then.
        mutating func cancel(with error: URLError) -> StopAction {
            switch state {
            case .created, .running:
                return stop(with: error)
            case .stoppedEarly, .streaming, .finished:
                return .none
            }
        }

        /// Stops the exchange with `error` (a refusal of the head, the caller's cancel, the idle
        /// timeout, a shutdown) unless it was stopped already: the first reason wins. Before the
        /// task exists, the stop waits for ``start(_:continuation:)``.
        mutating func stop(with error: URLError) -> StopAction {
            switch state {
            case .created:
                state = .stoppedEarly(error)
                return .none
            case .running(let task, let continuation, _):
                state = .finished
                return .answer(continuation, error, task)
            case .streaming(let task, var body) where body.stop == nil:
                body.stop = error
                state = .streaming(task, body)
                return .failBody(error, task)
            case .stoppedEarly, .streaming, .finished:
                return .none
            }
        }

        /// The head arrived and was allowed.
        mutating func receiveHead() -> HeadAction {
            guard mode == .stream, case .running(let task, let continuation, _) = state else { return .none }
            state = .streaming(task, StreamedBody())
            return .deliver(continuation)
        }

        /// `data` arrived; `limit` is the most the whole body may have. Past it, what was
        /// collected is dropped and the exchange stops with `error`.
        mutating func receive(_ data: Data, limit: Int, error: @autoclosure () -> URLError) -> ReceiveAction {
            switch state {
            case .running(let task, let continuation, var collected) where mode == .collect:
                guard collected.count + data.count <= limit else {
                    state = .finished
                    return .stop(.answer(continuation, error(), task))
                }
                // Drop the state's copy first, so appending never copies the body.
                state = .finished
                collected.append(data)
                state = .running(task, continuation, collected: collected)
                return .collected
            case .streaming(let task, var body) where body.stop == nil:
                guard body.received + data.count <= limit else {
                    let error = error()
                    body.stop = error
                    state = .streaming(task, body)
                    return .stop(.failBody(error, task))
                }
                body.received += data.count
                state = .streaming(task, body)
                return .write
            case .created, .stoppedEarly, .running, .streaming, .finished:
                return .drop
            }
        }

        /// The body's reader cancelled it, or dropped it, before its end.
        mutating func readerCancelled(with error: URLError) -> ReaderCancelAction {
            guard case .streaming(let task, var body) = state, body.stop == nil else { return .none }
            body.stop = error
            state = .streaming(task, body)
            return .cancelTask(task)
        }

        /// The task ended: what the caller or the body gets, the first time only.
        mutating func complete(_ outcome: Outcome, request: URLRequest) -> CompleteAction {
            switch state {
            case .running(_, let continuation, let collected):
                state = .finished
                let result: Result<(Data, URLResponse), any Error> =
                    if let challenged = outcome.challenged {
                        .success((outcome.data ?? collected, challenged))
                    } else if let error = outcome.error {
                        .failure(URLError.translated(error, request: request))
                    } else if let response = outcome.response {
                        .success((outcome.data ?? collected, response))
                    } else {
                        .failure(URLError(.badServerResponse, "the task ended without a response", url: request.url))
                    }
                return .answer(continuation, result)
            case .streaming(_, let body):
                state = .finished
                if let stop = body.stop { return .failBody(stop) }
                if let error = outcome.error { return .failBody(URLError.translated(error, request: request)) }
                return .finishBody
            case .created, .stoppedEarly, .finished:
                return .none
            }
        }
    }
}

extension URLSessionTransport.ExchangeState.StopAction: Equatable where Task: Equatable, Continuation: Equatable {}
extension URLSessionTransport.ExchangeState.HeadAction: Equatable where Continuation: Equatable {}
extension URLSessionTransport.ExchangeState.ReceiveAction: Equatable where Task: Equatable, Continuation: Equatable {}
extension URLSessionTransport.ExchangeState.ReaderCancelAction: Equatable where Task: Equatable {}
