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

    /// What to do after an event: resume the waiting reader, tell the producer, both or neither.
    struct Action {
        var reader: (Continuation, Result<Data?, any Error>)?
        var producer: ProducerAction?

        static var none: Action { Action() }
    }

    private enum End {
        case open
        case finished
        case failed(any Error)
    }

    let highWater: Int
    let lowWater: Int
    private var chunks: [Data] = []
    private var head = 0
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

    /// The producer delivers `chunk`.
    mutating func append(_ chunk: Data) -> Action {
        guard case .open = end, !chunk.isEmpty else { return .none }
        if let waiting {
            self.waiting = nil
            return Action(reader: (waiting, .success(chunk)))
        }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        if bufferedBytes >= highWater, !producerIsPaused {
            producerIsPaused = true
            return Action(producer: .pause)
        }
        return .none
    }

    /// The producer, which cannot pause, delivers `chunk`: past `unreadLimit` bytes waiting for
    /// the reader, the body fails with `error` instead (the chunks already buffered are read
    /// first) and the producer is told to cancel.
    mutating func append(_ chunk: Data, unreadLimit: Int, error: @autoclosure () -> any Error) -> Action {
        guard waiting == nil, bufferedBytes + chunk.count > unreadLimit, case .open = end else { return append(chunk) }
        var action = finish(error())
        action.producer = .cancel
        return action
    }

    /// The body ended, complete or not. Chunks already buffered are still read first.
    mutating func finish(_ error: (any Error)?) -> Action {
        guard case .open = end else { return .none }
        end = error.map { .failed($0) } ?? .finished
        producerIsPaused = false
        guard let waiting else { return .none }
        self.waiting = nil
        return Action(reader: (waiting, deliverEnd()))
    }

    /// The reader asks for the next chunk: returns it at once, or keeps the continuation until
    /// one arrives (``Action/none``).
    mutating func next(_ continuation: Continuation) -> Action {
        if head < chunks.count {
            let chunk = takeChunk()
            if producerIsPaused, bufferedBytes < lowWater {
                producerIsPaused = false
                return Action(reader: (continuation, .success(chunk)), producer: .resume)
            }
            return Action(reader: (continuation, .success(chunk)))
        }
        switch end {
        case .open:
            waiting = continuation
            if producerIsPaused {
                // Cannot happen with marks above zero, but a reader must never wait on a
                // paused producer.
                producerIsPaused = false
                return Action(producer: .resume)
            }
            return .none
        case .finished, .failed:
            return Action(reader: (continuation, deliverEnd()))
        }
    }

    /// The reader was cancelled, or dropped the body: buffered chunks are dropped, a body still
    /// arriving stops the producer, and the reader gets `error` (once) unless it has seen the
    /// end already.
    mutating func cancel(with error: any Error) -> Action {
        let wasOpen = if case .open = end { true } else { false }
        chunks = []
        head = 0
        bufferedBytes = 0
        producerIsPaused = false
        if !endDelivered { end = .failed(error) }
        var action = Action(producer: wasOpen ? .cancel : nil)
        if let waiting {
            self.waiting = nil
            action.reader = (waiting, deliverEnd())
        }
        return action
    }

    /// Something above the producer ends a body still arriving (a deadline passed): as
    /// ``cancel(with:)``, and nothing once the body is complete.
    mutating func terminate(_ error: any Error) -> Action {
        guard case .open = end else { return .none }
        return cancel(with: error)
    }

    private mutating func takeChunk() -> Data {
        let chunk = chunks[head]
        chunks[head] = Data()
        head += 1
        bufferedBytes -= chunk.count
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= chunks.count {
            chunks.removeFirst(head)
            head = 0
        }
        return chunk
    }

    /// The end as the reader sees it: an error once, then `nil` ever after, as iterators do.
    private mutating func deliverEnd() -> Result<Data?, any Error> {
        defer { endDelivered = true }
        if case .failed(let error) = end, !endDelivered { return .failure(error) }
        return .success(nil)
    }
}
