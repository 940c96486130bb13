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
    /// resume it, so it is resumed exactly once whatever the order. A task stopped early (a
    /// cancel, a refusal, the body limit, the idle timeout) answers its caller at once, without
    /// waiting for FoundationNetworking to report the task's end: a cancel reaches libcurl only
    /// after the burst it is decoding, which for a compression bomb takes seconds. Generic over
    /// the task and the continuation so that every order can be tested without a socket.
    struct ExchangeState<Task, Continuation> {
        private enum State {
            case created
            /// Stopped before the task existed (cancelled, or idle too long waiting for it);
            /// ``start(_:continuation:)`` stops the task at once.
            case stoppedEarly(URLError)
            case running(Task, Continuation, Data)
            /// The caller has its answer; the task may still be reporting.
            case finished
        }

        /// What stopping the exchange asks for: answer the caller with `error` now, and cancel
        /// the task.
        struct Stop {
            var task: Task
            var continuation: Continuation
            var error: URLError
        }

        /// How the task ended, as the session reported it.
        struct Outcome {
            var data: Data?
            var response: URLResponse?
            var error: (any Error)?
            var challenged: HTTPURLResponse?
        }

        private var state = State.created

        /// The task exists and its continuation waits; a stop when the exchange was stopped
        /// before.
        mutating func start(_ task: Task, continuation: Continuation) -> Stop? {
            if case .stoppedEarly(let error) = state {
                state = .finished
                return Stop(task: task, continuation: continuation, error: error)
            }
            state = .running(task, continuation, Data())
            return nil
        }

        /// Stops the exchange with `error` (the caller's cancel, a refusal, the idle timeout, a
        /// shutdown) unless it was stopped already: the first reason wins. Before the task
        /// exists, the stop waits for ``start(_:continuation:)``.
        mutating func stop(with error: URLError) -> Stop? {
            switch state {
            case .created:
                state = .stoppedEarly(error)
                return nil
            case .running(let task, let continuation, _):
                state = .finished
                return Stop(task: task, continuation: continuation, error: error)
            case .stoppedEarly, .finished:
                return nil
            }
        }

        /// Keeps `data` unless the body would pass `limit`; past it, stops the task with `error`
        /// and drops what was kept.
        mutating func receive(_ data: Data, limit: Int, error: @autoclosure () -> URLError) -> Stop? {
            guard case .running(let task, let continuation, var body) = state else { return nil }
            guard body.count + data.count <= limit else {
                state = .finished
                return Stop(task: task, continuation: continuation, error: error())
            }
            // Drop the state's copy first, so appending never copies the body.
            state = .finished
            body.append(data)
            state = .running(task, continuation, body)
            return nil
        }

        /// The task ended: the continuation to resume and what with, unless the caller has its
        /// answer already.
        mutating func complete(_ outcome: Outcome, request: URLRequest) -> (Continuation, Result<(Data, URLResponse), any Error>)? {
            guard case .running(_, let continuation, let body) = state else { return nil }
            state = .finished
            let result: Result<(Data, URLResponse), any Error> =
                if let challenged = outcome.challenged {
                    .success((outcome.data ?? body, challenged))
                } else if let error = outcome.error {
                    .failure(URLError.translated(error, request: request))
                } else if let response = outcome.response {
                    .success((outcome.data ?? body, response))
                } else {
                    .failure(URLError(.badServerResponse, "the task ended without a response", url: request.url))
                }
            return (continuation, result)
        }
    }
}

extension URLSessionTransport.ExchangeState.Stop: Equatable where Task: Equatable, Continuation: Equatable {}
