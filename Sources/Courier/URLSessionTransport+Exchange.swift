#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

extension URLSessionTransport {
    /// One data task's lifecycle, from creation to the one resumption of its continuation.
    ///
    /// The awaiting task, the cancellation handler and the session's delegate queue all reach
    /// it, in any order, so every step is a transition of ``State`` under one lock, and the
    /// continuation leaves the state in the same transition that decides to resume it: it is
    /// resumed exactly once whatever races.
    final class Exchange: Sendable {
        let request: URLRequest
        private let state = Mutex(State.created)

        init(request: URLRequest) {
            self.request = request
        }

        private enum State {
            case created
            /// Cancelled before the task existed; `start` cancels it at once.
            case cancelledEarly
            case running(URLSessionDataTask, CheckedContinuation<(Data, URLResponse), any Error>, Body)
            case finished
        }

        /// What arrived so far, and why the task was stopped early, if it was.
        struct Body {
            var data = Data()
            var stop: URLError?
        }

        private var cancellationError: URLError {
            URLError(.cancelled, "the request was cancelled", url: request.url)
        }

        func start(_ task: URLSessionDataTask, continuation: CheckedContinuation<(Data, URLResponse), any Error>) {
            let cancelled = state.withLock { state in
                let cancelled = if case .cancelledEarly = state { true } else { false }
                state = .running(task, continuation, Body(stop: cancelled ? cancellationError : nil))
                return cancelled
            }
            if cancelled { Self.cancelSoon(task) }
            task.resume()
        }

        func cancel() {
            let early = state.withLock { state -> Bool in
                guard case .created = state else { return false }
                state = .cancelledEarly
                return true
            }
            if !early, let task = stop(with: cancellationError) { Self.cancelSoon(task) }
        }

        /// Keeps `data` unless the body would pass `limit`; past it, stops the task and drops
        /// what it kept.
        func append(_ data: Data, limit: Int) {
            let task = updateBody { task, body -> URLSessionDataTask? in
                guard body.stop == nil else { return nil }
                guard body.data.count + data.count <= limit else {
                    body.stop = URLError(
                        .dataLengthExceedsMaximum,
                        "the decoded body exceeds the limit of \(limit) bytes (Policies.maximumResponseBytes)",
                        url: request.url
                    )
                    body.data = Data()
                    return task
                }
                body.data.append(data)
                return nil
            } ?? nil
            if let task { Self.cancelSoon(task) }
        }

        /// Cancels `task` from a thread of its own.
        ///
        /// FoundationNetworking's `cancel()` waits, with `DispatchQueue.sync`, for the session's
        /// work queue, which stays busy for as long as a fast server keeps sending. Called on
        /// the delegate queue it stopped the delivery of data, so the undelivered blocks piled
        /// up (3.9 GB was measured for an endless body); called on a task's thread it took one
        /// of the few threads that run every Swift task.
        static func cancelSoon(_ task: URLSessionDataTask) {
            DispatchQueue.global().async { task.cancel() }
        }

        /// Stops the task with `error` unless it was stopped already; the task to cancel, if any.
        func stop(with error: URLError) -> URLSessionDataTask? {
            updateBody { task, body in
                guard body.stop == nil else { return nil }
                body.stop = error
                return task
            } ?? nil
        }

        /// Runs `change` on the running task's body; nil when no task is running.
        private func updateBody<Result>(_ change: (URLSessionDataTask, inout Body) -> Result) -> Result? {
            state.withLock { state in
                guard case .running(let task, let continuation, var body) = state else { return nil }
                // Drop the state's copy first, so appending to `body.data` never copies it.
                state = .finished
                defer { state = .running(task, continuation, body) }
                return change(task, &body)
            }
        }

        /// Resumes the continuation with the task's outcome: the body collected here (or `data`
        /// from a completion handler), or the reason the task was stopped, or its own error.
        func complete(data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?) {
            let taken = state.withLock { state -> (CheckedContinuation<(Data, URLResponse), any Error>, Body)? in
                guard case .running(_, let continuation, let body) = state else { return nil }
                state = .finished
                return (continuation, body)
            }
            guard let (continuation, body) = taken else { return }
            if let stop = body.stop {
                continuation.resume(throwing: stop)
            } else if let challenged {
                continuation.resume(returning: (data ?? body.data, challenged))
            } else if let error {
                continuation.resume(throwing: URLError.translated(error, request: request))
            } else if let response {
                continuation.resume(returning: (data ?? body.data, Self.joiningCaseVariants(response)))
            } else {
                continuation.resume(throwing: URLError(.badServerResponse, "the task ended without a response", url: request.url))
            }
        }

        /// `response` with header names that differ only in letter case joined with ", " under
        /// one spelling, as `CurlTransport` joins them; itself when there are none.
        /// FoundationNetworking keeps such names apart, so `value(forHTTPHeaderField:)` would
        /// answer with one of the values. It does not keep the order they came in either, so the
        /// spellings are taken in ASCII order (capitalised first), not the order received.
        static func joiningCaseVariants(_ response: URLResponse) -> URLResponse {
            guard let http = response as? HTTPURLResponse, let url = http.url else { return response }
            var seen = Set<String>()
            var hasVariants = false
            for key in http.allHeaderFields.keys {
                guard let name = key as? String else { continue }
                if !seen.insert(name.lowercased()).inserted { hasVariants = true }
            }
            guard hasVariants, let fields = http.allHeaderFields as? [String: String] else { return response }
            var joined: [String: String] = [:]
            var spelling: [String: String] = [:]
            for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
                let key = name.lowercased()
                if let first = spelling[key] {
                    joined[first, default: ""] += ", \(value)"
                } else {
                    spelling[key] = name
                    joined[name] = value
                }
            }
            return HTTPURLResponse(url: url, statusCode: http.statusCode, httpVersion: "HTTP/1.1", headerFields: joined) ?? response
        }
    }
}
