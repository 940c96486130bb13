#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// The lifecycle of one streamed task as a value: each event returns what to do, and the
    /// ``StreamExchange`` that holds it under a lock does only that.
    ///
    /// The caller waits for the head only; once it arrives the continuation leaves the state and
    /// the body is written to a ``ResponseBodyStorage`` until the task completes. The awaiting
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
            /// Cancelled before the task existed; ``start(_:continuation:cancellation:)`` stops it.
            case cancelledEarly
            /// The task runs and the caller waits for the head; `stop` is why it was stopped.
            case awaitingHead(Task, Continuation, stop: URLError?)
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

        /// How the task's end reaches the caller.
        enum Completion {
            /// No head was delivered: the caller gets this result.
            case resume(Continuation, Result<URLResponse, any Error>)
            /// The head was delivered: the body ends, with this error when it broke off.
            case endBody((any Error)?)
        }

        private var state = State.created

        /// The task exists and the caller waits for the head; true when the task must be
        /// cancelled at once because the caller was cancelled before.
        mutating func start(_ task: Task, continuation: Continuation, cancellation: URLError) -> Bool {
            let cancelled = if case .cancelledEarly = state { true } else { false }
            state = .awaitingHead(task, continuation, stop: cancelled ? cancellation : nil)
            return cancelled
        }

        /// The caller was cancelled while it waited for the head; the task to cancel, if one
        /// runs. Once the head was delivered the caller's task no longer owns the transfer (the
        /// body's reader does), so this does nothing.
        mutating func cancel(with error: URLError) -> Task? {
            switch state {
            case .created:
                state = .cancelledEarly
                return nil
            case .awaitingHead:
                return stop(with: error)
            case .cancelledEarly, .streaming, .finished:
                return nil
            }
        }

        /// Stops the task before its head with `error` (a refusal, or the caller's cancel); the
        /// task to cancel, if any. The first reason wins.
        mutating func stop(with error: URLError) -> Task? {
            guard case .awaitingHead(let task, let continuation, nil) = state else { return nil }
            state = .awaitingHead(task, continuation, stop: error)
            return task
        }

        /// The head arrived and was allowed: the continuation to resume with it, unless the
        /// task was stopped already.
        mutating func receiveHead() -> Continuation? {
            guard case .awaitingHead(let task, let continuation, nil) = state else { return nil }
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
            case .awaitingHead(_, let continuation, let stop):
                state = .finished
                let result: Result<URLResponse, any Error> =
                    if let stop {
                        .failure(stop)
                    } else if let challenged {
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
            case .created, .cancelledEarly, .finished:
                return nil
            }
        }
    }
}

extension URLSessionTransport.StreamExchangeState.Receive: Equatable where Task: Equatable {}
