import Foundation

/// The buffer between the task that produces a request body and the engine that sends it, as a
/// value: each event returns what to do, and ``UploadBodyReader`` performs it outside its lock.
///
/// The engine never waits: a read with nothing buffered returns ``Read/wait`` and the engine
/// pauses its upload until the producer adds bytes (``Action/notifyReader``). The producer
/// waits instead once ``capacity`` bytes are buffered, so memory stays bounded whatever the
/// body's size.
///
/// Generic over the producer's continuation so every order is tested without a socket.
package struct UploadBodyState<Continuation> {
    /// What a read by the engine found.
    package enum Read: Equatable, Sendable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing buffered yet: pause, and go on when notified.
        case wait
        /// The body is complete.
        case end
        /// The producer failed or the upload was cancelled.
        case failed
    }

    /// What to do after an event.
    struct Action {
        /// Let the producer go on (space was freed, or the upload ended).
        var resumeProducer: Continuation?
        /// Tell the engine that a paused read can go on.
        var notifyReader = false

        static var none: Action { Action() }
    }

    private enum End {
        case open
        case finished
        case failed(any Error)
    }

    let capacity: Int
    private var chunks: [Data] = []
    /// How much of `chunks.first` was read already.
    private var offset = 0
    private(set) var bufferedBytes = 0
    private var end = End.open
    private var producerWaiting: Continuation?
    /// The engine's last read found nothing and it paused.
    private var readerIsWaiting = false
    /// Bytes handed to the engine so far.
    private(set) var bytesRead: Int64 = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Why the body failed, once it has.
    var failure: (any Error)? {
        if case .failed(let error) = end { error } else { nil }
    }

    var isEnded: Bool {
        if case .open = end { false } else { true }
    }

    /// The producer adds a chunk. When the buffer is full afterwards it must wait (see
    /// ``waitForSpace(_:)``).
    mutating func append(_ chunk: Data) -> Action {
        guard case .open = end, !chunk.isEmpty else { return .none }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        return wakeReader()
    }

    /// Whether the producer must wait before adding more.
    var isFull: Bool { bufferedBytes >= capacity && !isEnded }

    /// The producer waits for space; resumed at once when there is some, or when the upload
    /// ended.
    mutating func waitForSpace(_ continuation: Continuation) -> Action {
        guard isFull else { return Action(resumeProducer: continuation) }
        producerWaiting = continuation
        return .none
    }

    /// The producer has no more bytes, or failed with `error`.
    mutating func finish(_ error: (any Error)?) -> Action {
        guard case .open = end else { return .none }
        end = error.map { .failed($0) } ?? .finished
        if error != nil { dropChunks() }
        var action = wakeReader()
        action.resumeProducer = takeProducer()
        return action
    }

    /// The engine stopped the upload (the transfer ended or was cancelled): the producer is
    /// released and what it adds later is dropped.
    mutating func cancel(with error: any Error) -> Action {
        if case .open = end { end = .failed(error) }
        dropChunks()
        return Action(resumeProducer: takeProducer())
    }

    /// The engine reads up to `buffer.count` bytes.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> (Read, Action) {
        if case .failed = end { return (.failed, .none) }
        var copied = 0
        while copied < buffer.count, let first = chunks.first {
            let count = min(buffer.count - copied, first.count - offset)
            first.withUnsafeBytes { bytes in
                guard let source = bytes.baseAddress, let destination = buffer.baseAddress else { return }
                (destination + copied).copyMemory(from: source + offset, byteCount: count)
            }
            copied += count
            offset += count
            if offset == first.count {
                chunks.removeFirst()
                offset = 0
            }
        }
        bufferedBytes -= copied
        bytesRead += Int64(copied)
        if copied > 0 {
            let resume = bufferedBytes < capacity ? takeProducer() : nil
            return (.bytes(copied), Action(resumeProducer: resume))
        }
        if case .finished = end { return (.end, .none) }
        readerIsWaiting = true
        return (.wait, .none)
    }

    private mutating func wakeReader() -> Action {
        guard readerIsWaiting else { return .none }
        readerIsWaiting = false
        return Action(notifyReader: true)
    }

    private mutating func takeProducer() -> Continuation? {
        defer { producerWaiting = nil }
        return producerWaiting
    }

    private mutating func dropChunks() {
        chunks = []
        offset = 0
        bufferedBytes = 0
    }
}
