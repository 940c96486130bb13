#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// One data task, its continuation and the bytes that arrived: an ``ExchangeState`` under a
    /// lock, whose actions (cancel this task, resume this continuation) it performs outside it.
    final class Exchange: SessionExchange, Sendable {
        typealias Continuation = CheckedContinuation<(Data, URLResponse), any Error>

        let request: URLRequest
        let tasks: TaskQueue
        private let state = Locked(ExchangeState<URLSessionDataTask, Continuation>())

        init(request: URLRequest, tasks: TaskQueue) {
            self.request = request
            self.tasks = tasks
        }

        private var cancellationError: URLError {
            URLError.cancelled(url: request.url)
        }

        func start(_ task: URLSessionDataTask, continuation: Continuation) {
            let stop = state.withLock { $0.start(task, continuation: continuation) }
            task.resume()
            perform(stop)
        }

        func cancel() {
            perform(state.withLock { $0.stop(with: cancellationError) })
        }

        /// Keeps `data` unless the body would pass `limit`; past it, answers the caller and
        /// stops the task.
        func append(_ data: Data, limit: Int) {
            perform(state.withLock { state in
                state.receive(data, limit: limit, error: URLError(
                    .dataLengthExceedsMaximum,
                    "the decoded body exceeds the limit of \(limit) bytes (Policies.maximumResponseBytes)",
                    url: self.request.url
                ))
            })
        }

        func stop(with error: URLError) {
            perform(state.withLock { $0.stop(with: error) })
        }

        /// The head goes to the caller with the body, at completion; only its arrival is noted.
        func receive(_ response: URLResponse) {
            firstByte.withLock { $0 = ContinuousClock.now }
        }

        /// When the head arrived, for the exchange's metrics.
        let firstByte = Locked<ContinuousClock.Instant?>(nil)
        /// When the exchange was made, just before its task.
        private let started = ContinuousClock.now

        /// What a layer can measure around FoundationNetworking, from the start until now: the
        /// first byte when a head arrived, and how long the exchange has run.
        var measuredSoFar: ExchangeMetrics {
            var metrics = ExchangeMetrics()
            metrics.firstByte = firstByte.withLock { $0 }.map { $0 - started }
            metrics.total = ContinuousClock.now - started
            return metrics
        }

        /// Resumes the continuation with the task's outcome, once.
        func complete(data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?) {
            let outcome = ExchangeState<URLSessionDataTask, Continuation>.Outcome(data: data, response: response, error: error, challenged: challenged)
            guard let (continuation, result) = state.withLock({ $0.complete(outcome, request: request) }) else { return }
            continuation.resume(with: result.map { data, response in (data, Self.joiningCaseVariants(response)) })
        }

        /// Answers the caller at once and cancels the task on the task queue, never where the
        /// caller is (see ``TaskQueue``); what FoundationNetworking reports afterwards is dropped.
        private func perform(_ stop: ExchangeState<URLSessionDataTask, Continuation>.Stop?) {
            guard let stop else { return }
            tasks.cancel(stop.task)
            stop.continuation.resume(throwing: stop.error)
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
