#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// One task, its continuation and its body: an ``ExchangeState`` under a lock, whose actions
    /// (cancel this task, resume this continuation, write or end the body) it performs outside
    /// it. The session's delegate hands it the task's events.
    ///
    /// A streamed body is written as the delegate receives it and never paused (see
    /// ``ExchangeState`` for why FoundationNetworking's `suspend()` cannot be used), so the
    /// storage's pause and resume requests are ignored and only its cancel acts. Tasks are
    /// cancelled on the session's ``TaskQueue``, never where the event came from.
    final class Exchange: Sendable {
        /// What the caller waits for.
        enum Answer {
            /// The whole body, with the head.
            case collected(Data, ResponseHead)
            /// The head, with the storage of the body to read as it arrives. The awaiting task
            /// wraps it in its ``ResponseBody``: built there, the body's reader is published by
            /// the task itself rather than through the continuation from the delegate's thread,
            /// an ordering ThreadSanitizer cannot see.
            case streamed(ResponseBodyStorage, ResponseHead)
        }

        typealias Continuation = CheckedContinuation<Answer, any Error>
        private typealias State = ExchangeState<URLSessionTask, Continuation>

        /// An upload's bytes, given to an upload task rather than set as the request's
        /// `httpBody`: FoundationNetworking labels a POST's own body
        /// `application/x-www-form-urlencoded` when the request names no type, but never an
        /// upload task's, and an upload is not a form unless it says so.
        enum Upload: Sendable {
            case data(Data)
            /// Read in pieces as FoundationNetworking sends it.
            case file(URL)
        }

        /// What a streamed exchange has that a collected one does not.
        private struct Streamed {
            /// Where the body is written.
            let storage: ResponseBodyStorage
            /// The spooled request body, removed when the task ends.
            let spool: UploadSpool?
            /// The most bytes that may wait for the body's reader.
            let unreadLimit: Int
            /// Told how much of the upload FoundationNetworking has sent (progress reporting).
            let sendObserver: (@Sendable (Int64) -> Void)?
        }

        /// Where the body goes.
        private enum Mode {
            /// Kept by the state, and handed over whole when the task ends.
            case collected
            case streamed(Streamed)
        }

        let request: URLRequest
        let tasks: TaskQueue
        /// The body an upload task sends; nil for a data task, which sends the request's own.
        let upload: Upload?
        private let state: Locked<State>
        private let mode: Mode
        /// The most bytes the body may have: ``Policies/maximumResponseBytes``, or no limit for
        /// a download into a file (``ResponseBodyDestination``).
        let bodyLimit: Int
        /// What can be measured around FoundationNetworking (see ``metrics``).
        private let measure = Locked(Measure(started: .now))

        /// An exchange whose body is collected and handed over whole when the task ends;
        /// `upload`, when given, is sent as the request body.
        init(collecting request: URLRequest, tasks: TaskQueue, upload: Upload? = nil, bodyLimit: Int) {
            self.request = request
            self.tasks = tasks
            self.upload = upload
            self.bodyLimit = bodyLimit
            state = Locked(State(mode: .collect))
            mode = .collected
        }

        /// An exchange whose head is handed over as soon as it arrives and whose body is written
        /// to a ``ResponseBody`` as it arrives; `upload`, when given, is sent as the request body.
        init(
            streaming request: URLRequest, tasks: TaskQueue, upload: Upload?, spool: UploadSpool?,
            sendObserver: (@Sendable (Int64) -> Void)?, bufferSize: Int = ResponseBody.defaultBufferSize, unreadLimit: Int,
            bodyLimit: Int
        ) {
            self.request = request
            self.bodyLimit = bodyLimit
            self.tasks = tasks
            self.upload = upload
            state = Locked(State(mode: .stream))
            // The storage lives as long as the body's reader; it reaches this exchange weakly so
            // that a body kept after its transfer ended does not keep the exchange.
            let owner = WeakExchange()
            let storage = ResponseBodyStorage(bufferSize: bufferSize) { action in owner.exchange?.producer(action) }
            mode = .streamed(Streamed(storage: storage, spool: spool, unreadLimit: unreadLimit, sendObserver: sendObserver))
            owner.exchange = self
        }

        /// Where a streamed body is written; nil when the body is collected.
        private var storage: ResponseBodyStorage? {
            if case .streamed(let streamed) = mode { streamed.storage } else { nil }
        }

        private var streamed: Streamed? {
            if case .streamed(let streamed) = mode { streamed } else { nil }
        }

        // MARK: The awaiting task

        /// The task exists and the caller waits; the task is resumed even when the exchange was
        /// stopped already, and then cancelled at once.
        func start(_ task: URLSessionTask, continuation: Continuation) {
            let stop = state.withLock { $0.start(task, continuation: continuation) }
            task.resume()
            perform(stop)
        }

        /// The transport was shut down before the task was created.
        func refuse(_ continuation: Continuation, with error: URLError) {
            state.withLock { $0.refuse() }
            streamed?.spool?.remove()
            continuation.resume(throwing: error.carrying(metrics))
        }

        /// The caller was cancelled.
        func cancel() {
            perform(state.withLock { $0.cancel(with: URLError.cancelled(url: request.url)) })
        }

        // MARK: The session's delegate

        /// Stops the exchange with `error` (a refusal of the head, the idle timeout, a
        /// shutdown): whoever waits gets it at once, and the task is cancelled. Does nothing
        /// once the exchange has ended or was stopped already.
        func stop(with error: URLError) {
            perform(state.withLock { $0.stop(with: error) })
        }

        /// The head arrived and was allowed: a streamed head goes to the caller now, a
        /// collected one with the body at the end; its arrival is measured either way.
        func receive(_ response: URLResponse) {
            measure.withLock { $0.firstByte = .now }
            guard case .deliver(let continuation) = state.withLock({ $0.receiveHead() }) else { return }
            continuation.resume(with: answer(Data(), response, ended: false))
        }

        /// Body bytes arrived; the body may have ``bodyLimit`` bytes at most.
        func append(_ data: Data) {
            let limit = bodyLimit
            let receive = state.withLock { state in
                state.receive(data, limit: limit, error: URLError(
                    .dataLengthExceedsMaximum,
                    "the \(storage == nil ? "decoded body" : "body") exceeds the limit of \(limit) bytes (Policies.maximumResponseBytes)",
                    url: request.url
                ))
            }
            switch receive {
            case .drop:
                break
            case .collected:
                measure.withLock { $0.bodyBytes += data.count }
            case .write:
                measure.withLock { $0.bodyBytes += data.count }
                guard let streamed else { break }
                let unreadLimit = streamed.unreadLimit
                // The task cannot be paused: past the storage's mark the bytes wait there, up to
                // the unread limit, where the storage fails and asks for the task's cancel.
                streamed.storage.write(data, unreadLimit: unreadLimit, error: URLError(
                    .dataLengthExceedsMaximum,
                    "the reader fell \(unreadLimit) bytes behind the network, and this engine cannot pause a transfer (URLSessionTransport.Configuration.maximumUnreadBytes)",
                    url: request.url
                ))
            case .stop(let stop):
                perform(stop)
            }
        }

        /// FoundationNetworking has sent `totalBytes` of the request body so far.
        func sent(_ totalBytes: Int64) {
            streamed?.sendObserver?(totalBytes)
        }

        /// The task ended; `data` is the whole body when a completion handler collected it.
        func complete(data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?) {
            streamed?.spool?.remove()
            let outcome = State.Outcome(data: data, response: response, error: error, challenged: challenged)
            switch state.withLock({ $0.complete(outcome, request: request) }) {
            case .none:
                break
            case .answer(let continuation, let result):
                // A streamed head the delegate never saw (the response of a rejected
                // challenge) arrived with the task's end.
                if case .success = result, storage != nil { measure.withLock { $0.firstByte = $0.firstByte ?? .now } }
                let metrics = self.metrics
                continuation.resume(with: result.mapError { carrying(metrics, on: $0) }.flatMap { data, response in
                    answer(data, response, ended: true)
                })
            case .finishBody:
                storage?.finish(metrics: metrics)
            case .failBody(let error):
                let metrics = self.metrics
                storage?.fail(carrying(metrics, on: error), metrics: metrics)
            }
        }

        // MARK: The body's reader

        private func producer(_ action: ResponseBodyStorage.ProducerAction) {
            guard action == .cancel else { return }
            let error = URLError.cancelled("the response body was cancelled before its end", url: request.url)
            guard case .cancelTask(let task) = state.withLock({ $0.readerCancelled(with: error) }) else { return }
            tasks.cancel(task)
        }

        // MARK: Actions

        /// Answers the caller, or fails the body, at once and cancels the task on the task
        /// queue; what FoundationNetworking reports afterwards is dropped.
        private func perform(_ stop: State.StopAction) {
            switch stop {
            case .none:
                break
            case .answer(let continuation, let error, let task):
                tasks.cancel(task)
                continuation.resume(throwing: error.carrying(metrics))
            case .failBody(let error, let task):
                tasks.cancel(task)
                let metrics = self.metrics
                storage?.fail(error.carrying(metrics), metrics: metrics)
            }
        }

        /// The caller's answer for `response`: the collected body with its head, or the head
        /// with the body to read, whose end is written now when the task has `ended`.
        private func answer(_ data: Data, _ response: URLResponse, ended: Bool) -> Result<Answer, any Error> {
            let response = URLSessionTransport.joiningCaseVariants(response)
            let metrics = self.metrics
            guard let storage else {
                guard var head = ResponseHead(response) else { return .failure(NotHTTPResponse(response: response, body: data)) }
                head.metrics.firstByte = metrics.firstByte
                head.metrics.total = metrics.total
                head.metrics.decodedBodyBytes = data.count
                return .success(.collected(data, head))
            }
            guard var head = ResponseHead(response) else {
                return .failure(URLError(.badServerResponse, "the response is not HTTP", url: request.url))
            }
            // The total and the body's bytes are the body's to report, once it has ended.
            head.metrics.firstByte = metrics.firstByte
            if ended { storage.finish(metrics: metrics) }
            return .success(.streamed(storage, head))
        }

        /// What a layer can measure around FoundationNetworking, from the start until now: when
        /// the head arrived, how long the exchange has run and the decoded body bytes received.
        private var metrics: ExchangeMetrics {
            measure.withLock { measure in
                var metrics = ExchangeMetrics()
                metrics.firstByte = measure.firstByte.map { $0 - measure.started }
                metrics.total = ContinuousClock.now - measure.started
                metrics.decodedBodyBytes = measure.firstByte == nil ? nil : measure.bodyBytes
                return metrics
            }
        }
    }

    /// When an exchange started and its head arrived, and the body bytes received.
    private struct Measure {
        let started: ContinuousClock.Instant
        var firstByte: ContinuousClock.Instant?
        var bodyBytes = 0
    }

    /// The storage's way back to its exchange, which must not keep the exchange alive.
    private final class WeakExchange: Sendable {
        private struct Reference {
            weak var exchange: Exchange?
        }

        private let reference = Locked(Reference())

        var exchange: Exchange? {
            get { reference.withLock { $0.exchange } }
            set { reference.withLock { $0.exchange = newValue } }
        }
    }
}
