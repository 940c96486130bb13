#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// One streamed task: a ``StreamExchangeState`` under a lock and the body's storage.
    ///
    /// The body is written as the delegate receives it and never paused (see
    /// ``StreamExchangeState`` for why FoundationNetworking's `suspend()` cannot be used), so
    /// the storage's pause and resume requests are ignored and only its cancel acts: the task is
    /// cancelled on the session's ``TaskQueue``.
    final class StreamExchange: SessionExchange, Sendable {
        typealias Continuation = CheckedContinuation<(ResponseBody, ResponseHead), any Error>
        private typealias State = StreamExchangeState<URLSessionTask, Continuation>

        let request: URLRequest
        private let tasks: TaskQueue
        private let state = Locked(State())
        private let storage: ResponseBodyStorage
        /// The spooled request body, removed when the task ends.
        private let spool: UploadSpool?
        /// The most bytes that may wait for the body's reader.
        private let unreadLimit: Int
        /// Told how much of the upload FoundationNetworking has sent (progress reporting).
        private let sendObserver: (@Sendable (Int64) -> Void)?
        /// What can be measured around FoundationNetworking (see ``metrics``).
        private let measure: Locked<Measure>

        init(
            request: URLRequest, tasks: TaskQueue, spool: UploadSpool?, sendObserver: (@Sendable (Int64) -> Void)? = nil,
            bufferSize: Int = ResponseBody.defaultBufferSize, unreadLimit: Int
        ) {
            self.request = request
            self.unreadLimit = unreadLimit
            self.tasks = tasks
            self.spool = spool
            self.sendObserver = sendObserver
            measure = Locked(Measure(started: .now))
            // The storage lives as long as the body's reader; it reaches this exchange weakly so
            // that a body kept after its transfer ended does not keep the exchange.
            let owner = WeakStreamExchange()
            storage = ResponseBodyStorage(bufferSize: bufferSize) { action in owner.exchange?.producer(action) }
            owner.exchange = self
        }

        func sent(_ totalBytes: Int64) {
            sendObserver?(totalBytes)
        }

        private var cancellationError: URLError {
            URLError.cancelled(url: request.url)
        }

        func start(_ task: URLSessionTask, continuation: Continuation) {
            let stop = state.withLock { $0.start(task, continuation: continuation) }
            task.resume()
            perform(stop)
        }

        /// The caller stopped waiting for the head.
        func cancel() {
            perform(state.withLock { $0.cancel(with: cancellationError) })
        }

        func stop(with error: URLError) {
            perform(state.withLock { $0.stop(with: error) })
        }

        func receive(_ response: URLResponse) {
            measure.withLock { $0.firstByte = .now }
            guard let continuation = state.withLock({ $0.receiveHead() }) else { return }
            continuation.resume(with: head(of: response).map { (ResponseBody(storage), $0) })
        }

        /// Courier's head for `response`, with what was measured so far.
        private func head(of response: URLResponse) -> Result<ResponseHead, any Error> {
            guard var head = ResponseHead(Exchange.joiningCaseVariants(response)) else {
                return .failure(URLError(.badServerResponse, "the response is not HTTP", url: request.url))
            }
            // The total and the body's bytes are the body's to report, once it has ended.
            head.metrics.firstByte = metrics.firstByte
            return .success(head)
        }

        /// What a layer can measure around FoundationNetworking, as the buffered exchange
        /// measures it: when the head arrived, how long the exchange has run (until now) and the
        /// decoded body bytes written so far.
        private var metrics: ExchangeMetrics {
            measure.withLock { measure in
                var metrics = ExchangeMetrics()
                metrics.firstByte = measure.firstByte.map { $0 - measure.started }
                metrics.total = ContinuousClock.now - measure.started
                metrics.decodedBodyBytes = measure.firstByte == nil ? nil : measure.bodyBytes
                return metrics
            }
        }

        func append(_ data: Data, limit: Int) {
            let receive = state.withLock { state in
                state.receive(data.count, limit: limit, error: URLError(
                    .dataLengthExceedsMaximum,
                    "the body exceeds the limit of \(limit) bytes (Policies.maximumResponseBytes)",
                    url: request.url
                ))
            }
            switch receive {
            case .drop:
                break
            case .overflow(let error, let task):
                storage.fail(error.carrying(metrics), metrics: metrics)
                cancelSoon(task)
            case .write:
                measure.withLock { $0.bodyBytes += data.count }
                // The task cannot be paused: past the storage's mark the bytes wait there, up to
                // the unread limit, where the storage fails and asks for the task's cancel.
                storage.write(data, unreadLimit: unreadLimit, error: URLError(
                    .dataLengthExceedsMaximum,
                    "the reader fell \(unreadLimit) bytes behind the network, and this engine cannot pause a transfer (URLSessionTransport.Configuration.maximumUnreadBytes)",
                    url: request.url
                ))
            }
        }

        func complete(data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?) {
            spool?.remove()
            let completion = state.withLock { $0.complete(response: response, error: error, challenged: challenged, request: request) }
            switch completion {
            case .resume(let continuation, let result):
                if case .success = result { measure.withLock { $0.firstByte = $0.firstByte ?? .now } }
                let metrics = self.metrics
                continuation.resume(with: result.mapError { carrying(metrics, on: $0) }.flatMap { response in
                    head(of: response).map { head in
                        storage.finish(metrics: metrics)
                        return (ResponseBody(storage), head)
                    }
                })
            case .endBody(let error?):
                let metrics = self.metrics
                storage.fail(carrying(metrics, on: error), metrics: metrics)
            case .endBody(nil):
                storage.finish(metrics: metrics)
            case nil:
                break
            }
        }

        private func producer(_ action: ResponseBodyStorage.ProducerAction) {
            guard action == .cancel else { return }
            let error = URLError.cancelled("the response body was cancelled before its end", url: request.url)
            if let task = state.withLock({ $0.readerCancelled(with: error) }) { cancelSoon(task) }
        }

        /// Answers the caller, or fails the body, at once and cancels the task on the task
        /// queue, never where the caller is (see ``TaskQueue``).
        private func perform(_ stop: State.Stop?) {
            switch stop {
            case .answer(let continuation, let error, let task):
                cancelSoon(task)
                continuation.resume(throwing: error.carrying(metrics))
            case .failBody(let error, let task):
                cancelSoon(task)
                let metrics = self.metrics
                storage.fail(error.carrying(metrics), metrics: metrics)
            case nil:
                break
            }
        }

        private func cancelSoon(_ task: URLSessionTask) {
            tasks.cancel(task)
        }
    }

    /// When a streamed exchange started and its head arrived, and the body bytes written.
    private struct Measure {
        let started: ContinuousClock.Instant
        var firstByte: ContinuousClock.Instant?
        var bodyBytes = 0
    }

    /// The storage's way back to its exchange, which must not keep the exchange alive.
    private final class WeakStreamExchange: Sendable {
        private struct Reference {
            weak var exchange: StreamExchange?
        }

        private let reference = Locked(Reference())

        var exchange: StreamExchange? {
            get { reference.withLock { $0.exchange } }
            set { reference.withLock { $0.exchange = newValue } }
        }
    }
}
