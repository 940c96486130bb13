#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// The lifecycle of one data task as a value: each event returns what to do, and the
    /// ``Exchange`` that holds it under a lock does only that.
    ///
    /// The awaiting task, its cancellation handler and the session's delegate queue all send
    /// events, in any order. The continuation leaves the state in the transition that decides to
    /// resume it, so it is resumed exactly once whatever the order. Generic over the task and
    /// the continuation so that every order can be tested without a socket.
    struct ExchangeState<Task, Continuation> {
        private enum State {
            case created
            /// Cancelled before the task existed; ``start(_:continuation:)`` stops it at once.
            case cancelledEarly
            case running(Task, Continuation, Body)
            case finished
        }

        /// What arrived so far, and why the task was stopped early, if it was.
        struct Body {
            var data = Data()
            var stop: URLError?
        }

        /// How the task ended, as the session reported it.
        struct Outcome {
            var data: Data?
            var response: URLResponse?
            var error: (any Error)?
            var challenged: HTTPURLResponse?
        }

        private var state = State.created

        /// The task exists and its continuation waits; true when it must be cancelled at once,
        /// because the request was cancelled before.
        mutating func start(_ task: Task, continuation: Continuation, cancellation: URLError) -> Bool {
            let cancelled = if case .cancelledEarly = state { true } else { false }
            state = .running(task, continuation, Body(stop: cancelled ? cancellation : nil))
            return cancelled
        }

        /// The awaiting task was cancelled; the task to cancel, if one runs.
        mutating func cancel(with error: URLError) -> Task? {
            if case .created = state {
                state = .cancelledEarly
                return nil
            }
            return stop(with: error)
        }

        /// Stops the running task with `error` unless it was stopped already; the task to
        /// cancel, if any. The first reason wins.
        mutating func stop(with error: URLError) -> Task? {
            updateBody { task, body in
                guard body.stop == nil else { return nil }
                body.stop = error
                return task
            } ?? nil
        }

        /// Keeps `data` unless the body would pass `limit`; past it, stops the task with `error`
        /// and drops what was kept. The task to cancel, if any.
        mutating func receive(_ data: Data, limit: Int, error: @autoclosure () -> URLError) -> Task? {
            updateBody { task, body -> Task? in
                guard body.stop == nil else { return nil }
                guard body.data.count + data.count <= limit else {
                    body.stop = error()
                    body.data = Data()
                    return task
                }
                body.data.append(data)
                return nil
            } ?? nil
        }

        /// The task ended: the continuation to resume and what with, the first time only.
        mutating func complete(_ outcome: Outcome, request: URLRequest) -> (Continuation, Result<(Data, URLResponse), any Error>)? {
            guard case .running(_, let continuation, let body) = state else { return nil }
            state = .finished
            let result: Result<(Data, URLResponse), any Error> =
                if let stop = body.stop {
                    .failure(stop)
                } else if let challenged = outcome.challenged {
                    .success((outcome.data ?? body.data, challenged))
                } else if let error = outcome.error {
                    .failure(URLError.translated(error, request: request))
                } else if let response = outcome.response {
                    .success((outcome.data ?? body.data, response))
                } else {
                    .failure(URLError(.badServerResponse, "the task ended without a response", url: request.url))
                }
            return (continuation, result)
        }

        /// Runs `change` on the running task's body; nil when no task is running.
        private mutating func updateBody<Result>(_ change: (Task, inout Body) -> Result) -> Result? {
            guard case .running(let task, let continuation, var body) = state else { return nil }
            // Drop the state's copy first, so appending to `body.data` never copies it.
            state = .finished
            defer { state = .running(task, continuation, body) }
            return change(task, &body)
        }
    }
}
