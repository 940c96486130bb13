#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A response body read as it arrives: chunks of bytes, in order, for one reader.
///
/// With `CurlTransport`, memory stays bounded however large the body and however slow the
/// reader: once a few hundred KiB wait unread, libcurl pauses the transfer until the reader
/// catches up. FoundationNetworking cannot pause a transfer, so with `URLSessionTransport` the
/// unread bytes wait in memory up to ``URLSessionTransport/Configuration/maximumUnreadBytes``,
/// past which the body fails; there the whole body is also bounded by
/// ``Policies/maximumResponseBytes``, except for a download into a file
/// (``HTTPTransport/download(for:progress:)``), which the disk bounds on both engines.
///
/// ```swift
/// let (body, head) = try await transport.stream(for: request)
/// for try await chunk in body {
///     try file.write(contentsOf: chunk)
/// }
/// print(head.statusCode, body.metrics?.total ?? .zero)
/// ```
///
/// Iterate it once. Cancelling the reading task, or dropping the body and its iterator before
/// the end, stops the transfer and frees its connection; a read then throws
/// `URLError(.cancelled)`. A body that fails part-way throws the engine's `URLError` from
/// `next()`, after the chunks that arrived before the failure.
public struct ResponseBody: AsyncSequence, Sendable {
    public typealias Element = Data
    public typealias Failure = any Error

    /// How many unread bytes wait before the engine is told to pause: 1 MiB by default, room
    /// for a few of the largest pieces an engine receives at once, so a reader that keeps up
    /// never makes the engine pause.
    package static let defaultBufferSize = 1 << 20

    private let reader: Reader
    /// Applied to every error a read throws, by layers above the engine (error descriptions).
    private var errorTransform: (@Sendable (any Error) -> any Error)?
    /// Told of every chunk a read returns, and of the end (see ``observingChunks(_:)``).
    private var chunkObserver: (@Sendable (Data?) -> Void)?
    /// The hops before this one, set by the redirect layer (see ``redirected(after:)``).
    private var redirectHops: [ExchangeMetrics] = []
    /// The attempts before this one, set by the retry layer (see ``retried(after:)``).
    private var earlierAttempts: [ExchangeAttempt] = []

    package init(_ storage: ResponseBodyStorage) {
        reader = Reader(storage)
    }

    /// A body that is already complete, for engines that buffer and for test doubles;
    /// `trailerFields` are what ``trailerFields`` answers once it is read, and `metrics` what
    /// ``metrics`` answers.
    public init(_ data: Data, trailerFields: [String: String] = [:], metrics: ExchangeMetrics? = nil) {
        let storage = ResponseBodyStorage(bufferSize: Swift.max(1, data.count), producer: { _ in })
        storage.write(data)
        storage.finish(trailerFields: trailerFields, metrics: metrics)
        self.init(storage)
    }

    /// What the engine measured of the whole exchange, once its transfer has ended: read to its
    /// end, failed, or stopped because the body was cancelled or dropped. Nil while the body is
    /// still arriving.
    ///
    /// The response head comes first, so its ``ResponseHead/metrics`` stop at the first byte;
    /// these add what only the end tells: ``ExchangeMetrics/total`` and the bytes of the body.
    /// A reader that has read the body to its end (or caught its error) finds them set. Hops
    /// before this one, when redirects were followed, are in ``ExchangeMetrics/redirects``, and
    /// attempts before it, when the request was retried, in ``ExchangeMetrics/attempts``, as on
    /// the head.
    public var metrics: ExchangeMetrics? {
        reader.storage.metrics.map(view.metrics)
    }

    /// This body, answered after redirects from hops measured as `hops` (first to last), as
    /// ``ResponseHead`` records them.
    package func redirected(after hops: [ExchangeMetrics]) -> ResponseBody {
        var body = self
        body.redirectHops = hops
        return body
    }

    /// This body, answered after `attempts` were retried, as ``ResponseHead`` records them.
    package func retried(after attempts: [ExchangeAttempt]) -> ResponseBody {
        var body = self
        body.earlierAttempts = attempts
        return body
    }

    /// The fields of a chunked body's trailer section, once the body has been read to its end;
    /// empty before that and when the server sent none. Repeated names are joined with ", ".
    public var trailerFields: [String: String] {
        reader.storage.trailerFields
    }

    /// The whole body, failing with `URLError(.dataLengthExceedsMaximum)` once it passes
    /// `maximumBytes`.
    public func collect(upTo maximumBytes: Int) async throws -> Data {
        var data = Data()
        for try await chunk in self {
            guard data.count + chunk.count <= maximumBytes else {
                reader.storage.cancel(with: URLError(.dataLengthExceedsMaximum, "the body exceeds \(maximumBytes) bytes", url: nil))
                throw URLError(.dataLengthExceedsMaximum, "the body exceeds the limit of \(maximumBytes) bytes", url: nil)
            }
            data.append(chunk)
        }
        return data
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader, errorTransform: errorTransform, chunkObserver: chunkObserver)
    }

    /// Reads the chunks one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader
        fileprivate let errorTransform: (@Sendable (any Error) -> any Error)?
        fileprivate let chunkObserver: (@Sendable (Data?) -> Void)?

        public mutating func next() async throws -> Data? {
            do {
                let chunk = try await reader.storage.next()
                chunkObserver?(chunk)
                return chunk
            } catch {
                throw errorTransform?(error) ?? error
            }
        }
    }

    /// This body, with every error a read throws passed through `transform` (after any
    /// transform already set).
    package func mappingErrors(_ transform: @escaping @Sendable (any Error) -> any Error) -> ResponseBody {
        var body = self
        if let first = errorTransform {
            body.errorTransform = { @Sendable error in transform(first(error)) }
        } else {
            body.errorTransform = transform
        }
        return body
    }

    /// This body, with `observe` called with every chunk a read returns and with `nil` when a
    /// read finds the complete end (after any observer already set): for progress.
    package func observingChunks(_ observe: @escaping @Sendable (Data?) -> Void) -> ResponseBody {
        var body = self
        if let first = chunkObserver {
            body.chunkObserver = { @Sendable chunk in first(chunk); observe(chunk) }
        } else {
            body.chunkObserver = observe
        }
        return body
    }

    /// Fails the body with `error` unless it has ended: used by layers above the engine, such
    /// as a total deadline.
    package func terminate(with error: any Error) {
        reader.storage.terminate(error)
    }

    /// Whether the body has ended, completely or not.
    package var isEnded: Bool { reader.storage.isEnded }

    /// Calls `handler` once, when the body ends: complete, failed, cancelled, terminated, or
    /// dropped by its reader; at once when it has ended already. It is told how, with the error
    /// and metrics as a read of this body would see them: for the layers that saw its head,
    /// which tell of its end as they told of the head, and for a timer that must stop with it.
    ///
    /// A layer (``HTTPExchangeLayer``) sees a streamed call's body as its generic `Body`; when
    /// that is a `ResponseBody`, the transfer is still under way, and this is how the layer
    /// learns its bytes, its duration and how it ended:
    ///
    /// ```swift
    /// let (body, head) = try await next(request)
    /// if let streamed = body as? ResponseBody {
    ///     streamed.whenEnded { ending in record(ending.bytes, ending.instant - start, ending.error) }
    /// }
    /// return (body, head)
    /// ```
    ///
    /// The end is the transfer's, which may come before the reader has taken the last chunks;
    /// `handler` runs before the reader is told, so a reader that reached the end finds it
    /// called. It must not keep this body, or a body its reader drops would never end.
    public func whenEnded(_ handler: @escaping @Sendable (ResponseBodyEnding) -> Void) {
        let view = view
        let asked = ContinuousClock.now
        reader.storage.whenEnded { ending in
            var seen = ending
            seen.error = ending.error.map(view.error)
            seen.metrics = ending.metrics.map(view.metrics)
            // A body can arrive whole before its head has climbed the layers to whoever asks;
            // for them the call ends no sooner than they got the head.
            seen.instant = Swift.max(ending.instant, asked)
            handler(seen)
        }
    }

    /// What the layers above the engine add to what the storage holds, without the reader.
    private var view: View {
        View(errorTransform: errorTransform, redirectHops: redirectHops, earlierAttempts: earlierAttempts)
    }

    /// The errors and metrics of a body as its reader sees them: errors passed through the
    /// layers' transform, metrics with the hops and attempts before this one, as the head has
    /// them.
    private struct View: Sendable {
        let errorTransform: (@Sendable (any Error) -> any Error)?
        let redirectHops: [ExchangeMetrics]
        let earlierAttempts: [ExchangeAttempt]

        func error(_ error: any Error) -> any Error {
            errorTransform?(error) ?? error
        }

        func metrics(_ metrics: ExchangeMetrics) -> ExchangeMetrics {
            var metrics = metrics
            if !redirectHops.isEmpty { metrics.redirects = redirectHops }
            if !earlierAttempts.isEmpty { metrics.attempts = earlierAttempts }
            return metrics
        }
    }

    /// ``terminate(with:)`` for a body held only weakly, so that whoever keeps it (a timer)
    /// does not keep alive a body its reader dropped, nor the transfer behind it.
    package var weakTerminate: @Sendable (any Error) -> Void {
        { [weak reader] error in reader?.storage.terminate(error) }
    }
}

/// Held by the body and its iterator and never by the engine, so that when the reader lets go
/// of both the transfer is stopped.
private final class Reader: Sendable {
    let storage: ResponseBodyStorage

    init(_ storage: ResponseBodyStorage) {
        self.storage = storage
    }

    deinit {
        storage.cancel(with: URLError.cancelled("the response body was dropped before its end", url: nil))
    }
}

/// The shared buffer of a ``ResponseBody``: the engine writes into it, the reader takes from it.
///
/// The engine gets every ``ResponseBodyState/ProducerAction`` through `producer`, called
/// outside the lock, on the thread whose event caused it: the engine's own thread for
/// `pause`, the reader's for `resume` and `cancel`.
package final class ResponseBodyStorage: Sendable {
    package typealias ProducerAction = ResponseBodyState<UnsafeContinuation<Data?, any Error>>.ProducerAction
    typealias State = ResponseBodyState<UnsafeContinuation<Data?, any Error>>

    private struct Shared {
        var state: State
        var trailerFields: [String: String] = [:]
        /// What the engine measured, once it said the transfer ended.
        var metrics: ExchangeMetrics?
        /// The bytes the engine handed over while the body was open.
        var receivedBytes = 0
        /// How the state ended, taken when it did.
        var ending: ResponseBodyEnding?
        /// Called once the state ends; emptied then.
        var endHandlers: [@Sendable (ResponseBodyEnding) -> Void] = []

        /// Counts `chunk` unless the event that brought it ended the body instead.
        mutating func count(_ chunk: Data) {
            if !state.isEnded { receivedBytes += chunk.count }
        }

        /// The ending and the handlers to call with it, the first time the state is found ended.
        mutating func takeEndHandlers() -> (ResponseBodyEnding, [@Sendable (ResponseBodyEnding) -> Void])? {
            guard state.isEnded, ending == nil else { return nil }
            let ended = ResponseBodyEnding(bytes: receivedBytes, error: state.failure, metrics: metrics, instant: .now)
            ending = ended
            defer { endHandlers = [] }
            return (ended, endHandlers)
        }
    }

    private let shared: Locked<Shared>
    private let producer: @Sendable (ProducerAction) -> Void

    package init(bufferSize: Int = ResponseBody.defaultBufferSize, producer: @escaping @Sendable (ProducerAction) -> Void) {
        shared = Locked(Shared(state: ResponseBodyState(highWater: bufferSize)))
        self.producer = producer
    }

    // MARK: Engine

    /// Hands a chunk to the reader; false when the engine must pause until told to resume.
    @discardableResult
    package func write(_ chunk: Data) -> Bool {
        let action = shared.withLock { shared in
            defer { shared.count(chunk) }
            return shared.state.append(chunk)
        }
        switch action {
        case .none: return true
        case .resumeReader(let continuation, let chunk):
            continuation.resume(returning: chunk)
            return true
        // Said by the return value, on the engine's own thread, rather than through `producer`.
        case .pauseProducer: return false
        }
    }

    /// Hands a chunk to the reader for an engine that cannot pause: past `unreadLimit` bytes
    /// waiting for the reader, the body fails with `error` and the engine is told to cancel.
    package func write(_ chunk: Data, unreadLimit: Int, error: @autoclosure () -> any Error) {
        end { shared in
            defer { shared.count(chunk) }
            return shared.state.append(chunk, unreadLimit: unreadLimit, error: error())
        } perform: { action in
            switch action {
            case .appended(.none): break
            case .appended(.resumeReader(let continuation, let chunk)): continuation.resume(returning: chunk)
            case .appended(.pauseProducer): producer(.pause)
            case .cancelProducer: producer(.cancel)
            }
        }
    }

    /// The body is complete; `trailerFields` are the trailer section's fields, if any, and
    /// `metrics` what the engine measured of the exchange.
    package func finish(trailerFields: [String: String] = [:], metrics: ExchangeMetrics? = nil) {
        end { shared in
            if !shared.state.isEnded { shared.trailerFields = trailerFields }
            shared.metrics = shared.metrics ?? metrics
            return shared.state.finish(nil)
        } perform: { perform($0) }
    }

    /// The body broke off with `error`; `metrics` are what the engine measured of the exchange.
    /// Kept even when the reader had ended the body already (cancelled or dropped it): the
    /// transfer's end is reported after that.
    package func fail(_ error: any Error, metrics: ExchangeMetrics? = nil) {
        end { shared in
            shared.metrics = shared.metrics ?? metrics
            return shared.state.finish(error)
        } perform: { perform($0) }
    }

    /// Whether the reader has buffered enough that the engine should not deliver more.
    package var isPaused: Bool { shared.withLock { $0.state.producerIsPaused } }

    // MARK: Reader

    /// Empty until the reader has read to the end, as ``ResponseBody/trailerFields`` promises.
    var trailerFields: [String: String] {
        shared.withLock { $0.state.readerReachedTheEnd ? $0.trailerFields : [:] }
    }

    var isEnded: Bool { shared.withLock { $0.state.isEnded } }

    var metrics: ExchangeMetrics? { shared.withLock { $0.metrics } }

    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                switch shared.withLock({ $0.state.next(continuation) }) {
                case .resumeReader(let continuation, let result): continuation.resume(with: result)
                case .resumeReaderAndProducer(let continuation, let chunk):
                    continuation.resume(returning: chunk)
                    producer(.resume)
                case .wait: break
                case .waitAndResumeProducer: producer(.resume)
                }
            }
        } onCancel: {
            cancel(with: URLError.cancelled("the task reading the response body was cancelled", url: nil))
        }
    }

    func cancel(with error: any Error) {
        end { $0.state.cancel(with: error) } perform: { perform($0) }
    }

    func terminate(_ error: any Error) {
        end { $0.state.terminate(error) } perform: { perform($0) }
    }

    func whenEnded(_ handler: @escaping @Sendable (ResponseBodyEnding) -> Void) {
        let ended = shared.withLock { shared in
            if shared.ending == nil { shared.endHandlers.append(handler) }
            return shared.ending
        }
        if let ended { handler(ended) }
    }

    /// Applies an event that can end the body, then, outside the lock, calls the end handlers
    /// before performing its action, so that a reader who sees the end finds them called.
    private func end<Action>(_ event: (inout Shared) -> Action, perform: (Action) -> Void) {
        let (action, ended) = shared.withLock { shared in
            let action = event(&shared)
            return (action, shared.takeEndHandlers())
        }
        if let (ending, handlers) = ended {
            for handler in handlers { handler(ending) }
        }
        perform(action)
    }

    private func perform(_ action: State.FinishAction) {
        switch action {
        case .none: break
        case .resumeReader(let continuation, let result): continuation.resume(with: result)
        }
    }

    private func perform(_ action: State.CancelAction) {
        switch action {
        case .none: break
        case .cancelProducer: producer(.cancel)
        case .cancelProducerAndFailReader(let continuation, let error):
            continuation.resume(throwing: error)
            producer(.cancel)
        }
    }
}
