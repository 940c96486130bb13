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
        typealias Continuation = CheckedContinuation<(ResponseBody, URLResponse), any Error>
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

        init(
            request: URLRequest, tasks: TaskQueue, spool: UploadSpool?, sendObserver: (@Sendable (Int64) -> Void)? = nil,
            bufferSize: Int = ResponseBody.defaultBufferSize, unreadLimit: Int
        ) {
            self.request = request
            self.unreadLimit = unreadLimit
            self.tasks = tasks
            self.spool = spool
            self.sendObserver = sendObserver
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
            URLError(.cancelled, "the request was cancelled", url: request.url)
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
            guard let continuation = state.withLock({ $0.receiveHead() }) else { return }
            continuation.resume(returning: (ResponseBody(storage), Exchange.joiningCaseVariants(response)))
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
                storage.fail(error)
                cancelSoon(task)
            case .write:
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
                continuation.resume(with: result.map { response in
                    storage.finish()
                    return (ResponseBody(storage), Exchange.joiningCaseVariants(response))
                })
            case .endBody(let error?):
                storage.fail(error)
            case .endBody(nil):
                storage.finish()
            case nil:
                break
            }
        }

        private func producer(_ action: ResponseBodyStorage.ProducerAction) {
            guard action == .cancel else { return }
            let error = URLError(.cancelled, "the response body was cancelled before its end", url: request.url)
            if let task = state.withLock({ $0.readerCancelled(with: error) }) { cancelSoon(task) }
        }

        /// Answers the caller, or fails the body, at once and cancels the task on the task
        /// queue, never where the caller is (see ``TaskQueue``).
        private func perform(_ stop: State.Stop?) {
            switch stop {
            case .answer(let continuation, let error, let task):
                cancelSoon(task)
                continuation.resume(throwing: error)
            case .failBody(let error, let task):
                cancelSoon(task)
                storage.fail(error)
            case nil:
                break
            }
        }

        private func cancelSoon(_ task: URLSessionTask) {
            tasks.cancel(task)
        }
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
