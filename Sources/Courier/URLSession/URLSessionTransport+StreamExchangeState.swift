#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// The lifecycle of one streamed task as a value: each event returns what to do, and the
    /// ``StreamExchange`` that holds it under a lock does only that.
    ///
    /// The caller waits for the head only; once it arrives the continuation leaves the state and
    /// the body is written to a ``ResponseBodyStorage`` until the task completes. A task stopped
    /// early answers at once, the caller or the body's reader, without waiting for
    /// FoundationNetworking to report the task's end (see ``ExchangeState``). The awaiting
    /// task, the body's reader and the session's delegate queue send events in any order; the
    /// continuation leaves the state in the one transition that resumes it, and the task is
    /// cancelled at most once. Generic over the task and the continuation so every order is
    /// tested without a socket.
    ///
    /// There is no paused state: FoundationNetworking cannot pause a transfer. Its `suspend()`
    /// takes the easy handle off libcurl's multi handle, which was measured to either not stop
    /// the bytes at all or to abort the transfer, `resume()` then sending the request again on a
    /// new connection and delivering the body from its first byte a second time. A slow
    /// reader's unread bytes therefore wait in the body's buffer, bounded by
    /// ``Policies/maximumResponseBytes``.
    struct StreamExchangeState<Task, Continuation> {
        private enum State {
            case created
            /// Stopped before the task existed (cancelled, or idle too long waiting for it);
            /// ``start(_:continuation:)`` stops the task at once.
            case stoppedEarly(URLError)
            /// The task runs and the caller waits for the head.
            case awaitingHead(Task, Continuation)
            case streaming(Task, Body)
            case finished
        }

        /// What the body counted so far, and why it was stopped if it was.
        private struct Body {
            var received = 0
            var stop: URLError?
        }

        /// What to do with bytes that arrived.
        enum Receive {
            /// Write them to the body.
            case write
            /// Drop them: the body was stopped already, or no head came before them.
            case drop
            /// They pass the limit: fail the body with the error and cancel the task.
            case overflow(URLError, Task)
        }

        /// What stopping the exchange asks for.
        enum Stop {
            /// The caller waits for the head: answer it with the error now, and cancel the task.
            case answer(Continuation, URLError, Task)
            /// The body is being read: fail it with the error, and cancel the task.
            case failBody(URLError, Task)
        }

        /// How the task's end reaches the caller.
        enum Completion {
            /// No head was delivered: the caller gets this result.
            case resume(Continuation, Result<URLResponse, any Error>)
            /// The head was delivered: the body ends, with this error when it broke off.
            case endBody((any Error)?)
        }

        private var state = State.created

        /// The task exists and the caller waits for the head; a stop when the exchange was
        /// stopped before.
        mutating func start(_ task: Task, continuation: Continuation) -> Stop? {
            if case .stoppedEarly(let error) = state {
                state = .finished
                return .answer(continuation, error, task)
            }
            state = .awaitingHead(task, continuation)
            return nil
        }

        /// The caller was cancelled while it waited for the head; what to stop, if a task runs.
        /// Once the head was delivered the caller's task no longer owns the transfer (the body's
        /// reader does), so this does nothing.
        mutating func cancel(with error: URLError) -> Stop? {
            switch state {
            case .created, .awaitingHead:
                return stop(with: error)
            case .stoppedEarly, .streaming, .finished:
                return nil
            }
        }

        /// Stops the exchange with `error` (a refusal, the caller's cancel, the idle timeout, a
        /// shutdown) unless it was stopped already: the first reason wins. Before the task
        /// exists, the stop waits for ``start(_:continuation:)``.
        mutating func stop(with error: URLError) -> Stop? {
            switch state {
            case .created:
                state = .stoppedEarly(error)
                return nil
            case .awaitingHead(let task, let continuation):
                state = .finished
                return .answer(continuation, error, task)
            case .streaming(let task, var body) where body.stop == nil:
                body.stop = error
                state = .streaming(task, body)
                return .failBody(error, task)
            case .stoppedEarly, .streaming, .finished:
                return nil
            }
        }

        /// The head arrived and was allowed: the continuation to resume with it, unless the
        /// task was stopped already.
        mutating func receiveHead() -> Continuation? {
            guard case .awaitingHead(let task, let continuation) = state else { return nil }
            state = .streaming(task, Body())
            return continuation
        }

        /// `count` bytes of body arrived; `limit` is the most the whole body may have.
        mutating func receive(_ count: Int, limit: Int, error: @autoclosure () -> URLError) -> Receive {
            guard case .streaming(let task, var body) = state, body.stop == nil else { return .drop }
            guard body.received + count <= limit else {
                let error = error()
                body.stop = error
                state = .streaming(task, body)
                return .overflow(error, task)
            }
            body.received += count
            state = .streaming(task, body)
            return .write
        }

        /// The reader went away or was cancelled before the end: the task to cancel, if it runs.
        mutating func readerCancelled(with error: URLError) -> Task? {
            guard case .streaming(let task, var body) = state, body.stop == nil else { return nil }
            body.stop = error
            state = .streaming(task, body)
            return task
        }

        /// The task ended: what the caller or the body gets, the first time only.
        mutating func complete(
            response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?, request: URLRequest
        ) -> Completion? {
            switch state {
            case .awaitingHead(_, let continuation):
                state = .finished
                let result: Result<URLResponse, any Error> =
                    if let challenged {
                        .success(challenged)
                    } else if let error {
                        .failure(URLError.translated(error, request: request))
                    } else if let response {
                        // A head the delegate never saw; FoundationNetworking reports every head,
                        // so this is only a fallback.
                        .success(response)
                    } else {
                        .failure(URLError(.badServerResponse, "the task ended without a response", url: request.url))
                    }
                return .resume(continuation, result)
            case .streaming(_, let body):
                state = .finished
                if let stop = body.stop { return .endBody(stop) }
                return .endBody(error.map { URLError.translated($0, request: request) })
            case .created, .stoppedEarly, .finished:
                return nil
            }
        }
    }
}

extension URLSessionTransport.StreamExchangeState.Receive: Equatable where Task: Equatable {}
extension URLSessionTransport.StreamExchangeState.Stop: Equatable where Task: Equatable, Continuation: Equatable {}
