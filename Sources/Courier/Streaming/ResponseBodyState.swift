import Foundation

/// The buffer between an engine that receives a body and the one task that reads it, as a
/// value: each event returns what to do, and ``ResponseBody`` performs it outside its lock.
///
/// Back-pressure is two marks. Once the buffered bytes reach ``highWater`` the producer is told
/// to pause (the curl engine pauses the easy handle); once the reader has taken them below
/// ``lowWater`` it is told to go on. So at most `highWater` plus one chunk waits here, however
/// large the body and however slow the reader, for a producer that can pause. URLSession's
/// cannot, and keeps appending past the mark.
///
/// Generic over the continuation so every order of events is tested without a socket.
package struct ResponseBodyState<Continuation> {
    /// What the producer must do.
    package enum ProducerAction: Equatable, Sendable {
        /// Stop delivering until told to resume.
        case pause
        /// The reader drained the buffer: deliver again.
        case resume
        /// The reader went away or was cancelled before the end: stop the transfer.
        case cancel
    }

    /// For ``append(_:)``.
    enum AppendAction {
        /// The chunk was buffered.
        case none
        /// The reader was waiting: resume it with the chunk.
        case resumeReader(Continuation, Data)
        /// The chunk was buffered, and filled the buffer to the high mark: tell the producer to pause.
        case pauseProducer
    }

    /// For ``append(_:unreadLimit:error:)``.
    enum BoundedAppendAction {
        /// Under the limit: as for any producer.
        case appended(AppendAction)
        /// Past the limit: the body failed (its reader gets the error after what is buffered),
        /// so tell the producer to cancel.
        case cancelProducer
    }

    /// For ``finish(_:)``.
    enum FinishAction {
        /// The reader was not waiting, or the body had ended already.
        case none
        /// The reader was waiting: resume it with the end, `nil` or the error.
        case resumeReader(Continuation, Result<Data?, any Error>)
    }

    /// For ``next(_:)``.
    enum NextAction {
        /// Resume the reader at once with a chunk, or with the end.
        case resumeReader(Continuation, Result<Data?, any Error>)
        /// Resume the reader with a chunk, which took the buffer below the low mark: tell the
        /// producer to go on.
        case resumeReaderAndProducer(Continuation, Data)
        /// Nothing buffered: the reader waits for the next event.
        case wait
        /// Nothing buffered and the producer paused, which marks above zero rule out: the
        /// reader waits, and the producer is told to go on so it never waits on a paused one.
        case waitAndResumeProducer
    }

    /// For ``cancel(with:)`` and ``terminate(_:)``.
    enum CancelAction {
        /// The body had ended already; the reader is not waiting.
        case none
        /// The body was still arriving: tell the producer to cancel.
        case cancelProducer
        /// The body was still arriving and the reader waiting: tell the producer to cancel and
        /// resume the reader with the error.
        case cancelProducerAndFailReader(Continuation, any Error)
    }

    private enum End {
        case open
        case finished
        case failed(any Error)
    }

    let highWater: Int
    let lowWater: Int
    private var chunks = FIFOQueue<Data>()
    private(set) var bufferedBytes = 0
    private var waiting: Continuation?
    private var end = End.open
    /// Whether the producer was told to pause and not yet to go on.
    private(set) var producerIsPaused = false
    /// The reader's end was delivered (nil or an error); later reads get the end again.
    private var endDelivered = false

    /// Whether the reader has read the whole body: every chunk and then the end.
    var readerReachedTheEnd: Bool {
        if case .finished = end { endDelivered } else { false }
    }

    init(highWater: Int) {
        self.highWater = max(1, highWater)
        lowWater = max(1, highWater / 2)
    }

    var isEnded: Bool {
        if case .open = end { false } else { true }
    }

    /// The error the body ended with; nil while it is open and once it is complete.
    var failure: (any Error)? {
        if case .failed(let error) = end { error } else { nil }
    }

    /// The producer delivers `chunk`.
    mutating func append(_ chunk: Data) -> AppendAction {
        guard case .open = end, !chunk.isEmpty else { return .none }
        if let waiting {
            self.waiting = nil
            return .resumeReader(waiting, chunk)
        }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        if bufferedBytes >= highWater, !producerIsPaused {
            producerIsPaused = true
            return .pauseProducer
        }
        return .none
    }

    /// The producer, which cannot pause, delivers `chunk`: past `unreadLimit` bytes waiting for
    /// the reader, the body fails with `error` instead (the chunks already buffered are read
    /// first) and the producer is told to cancel.
    mutating func append(_ chunk: Data, unreadLimit: Int, error: @autoclosure () -> any Error) -> BoundedAppendAction {
        guard waiting == nil, bufferedBytes + chunk.count > unreadLimit, case .open = end else { return .appended(append(chunk)) }
        // Nobody waits, so the end waits for the reader's next read.
        end = .failed(error())
        producerIsPaused = false
        return .cancelProducer
    }

    /// The body ended, complete or not. Chunks already buffered are still read first.
    mutating func finish(_ error: (any Error)?) -> FinishAction {
        guard case .open = end else { return .none }
        end = error.map { .failed($0) } ?? .finished
        producerIsPaused = false
        guard let waiting else { return .none }
        self.waiting = nil
        return .resumeReader(waiting, deliverEnd())
    }

    /// The reader asks for the next chunk: returns it at once, or keeps the continuation until
    /// one arrives (``NextAction/wait``).
    mutating func next(_ continuation: Continuation) -> NextAction {
        if let chunk = chunks.popFirst() {
            bufferedBytes -= chunk.count
            if producerIsPaused, bufferedBytes < lowWater {
                producerIsPaused = false
                return .resumeReaderAndProducer(continuation, chunk)
            }
            return .resumeReader(continuation, .success(chunk))
        }
        switch end {
        case .open:
            waiting = continuation
            if producerIsPaused {
                producerIsPaused = false
                return .waitAndResumeProducer
            }
            return .wait
        case .finished, .failed:
            return .resumeReader(continuation, deliverEnd())
        }
    }

    /// The reader was cancelled, or dropped the body: buffered chunks are dropped, a body still
    /// arriving stops the producer, and the reader gets `error` (once) unless it has seen the
    /// end already.
    mutating func cancel(with error: any Error) -> CancelAction {
        let wasOpen = if case .open = end { true } else { false }
        chunks.removeAll()
        bufferedBytes = 0
        producerIsPaused = false
        if !endDelivered { end = .failed(error) }
        guard wasOpen else { return .none }
        // Only an open body has a waiting reader, and it has seen no end yet.
        guard let waiting else { return .cancelProducer }
        self.waiting = nil
        endDelivered = true
        return .cancelProducerAndFailReader(waiting, error)
    }

    /// Something above the producer ends a body still arriving (a deadline passed): as
    /// ``cancel(with:)``, and nothing once the body is complete.
    mutating func terminate(_ error: any Error) -> CancelAction {
        guard case .open = end else { return .none }
        return cancel(with: error)
    }

    /// The end as the reader sees it: an error once, then `nil` ever after, as iterators do.
    private mutating func deliverEnd() -> Result<Data?, any Error> {
        defer { endDelivered = true }
        if case .failed(let error) = end, !endDelivered { return .failure(error) }
        return .success(nil)
    }
}
