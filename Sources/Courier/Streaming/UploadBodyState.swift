import Foundation

/// The buffer between the task that produces a request body and the engine that sends it, as a
/// value: each event returns what to do, and ``UploadBodyReader`` performs it outside its lock.
///
/// The engine never waits: a read with nothing buffered returns ``Read/wait`` and the engine
/// pauses its upload until the producer adds bytes (``AppendAction/notifyReader``). The producer
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

    /// For ``append(_:)``.
    enum AppendAction: Equatable {
        case none
        /// Tell the engine, whose last read found nothing and paused, that it can go on.
        case notifyReader
    }

    /// For ``waitForSpace(_:)``.
    enum SpaceAction {
        /// There is room, or the upload ended: let the producer go on at once.
        case resumeProducer(Continuation)
        /// The buffer is full: the producer waits for a read to free space.
        case wait
    }

    /// For ``finish(_:)``.
    enum FinishAction {
        case none
        /// Tell a paused engine it can go on (to the end, or to the failure).
        case notifyReader
        /// Let a producer waiting for space go on.
        case resumeProducer(Continuation)
        /// Both: a read into an empty buffer paused the engine while the producer waited.
        case notifyReaderAndResumeProducer(Continuation)
    }

    /// For ``cancel(with:)``.
    enum CancelAction {
        case none
        /// Let the producer waiting for space go on; what it adds later is dropped.
        case resumeProducer(Continuation)
    }

    /// For ``read(into:)``: what the read found, and whom to tell.
    enum ReadAction {
        /// This many bytes were copied.
        case copied(Int)
        /// This many bytes were copied, which made room: let the producer waiting for it go on.
        case copiedAndResumeProducer(Int, Continuation)
        /// Nothing buffered yet: the engine pauses until ``AppendAction/notifyReader``.
        case wait
        /// The body is complete.
        case end
        /// The producer failed or the upload was cancelled.
        case failed

        /// What the engine is told.
        var read: Read {
            switch self {
            case .copied(let count), .copiedAndResumeProducer(let count, _): .bytes(count)
            case .wait: .wait
            case .end: .end
            case .failed: .failed
            }
        }
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
    mutating func append(_ chunk: Data) -> AppendAction {
        guard case .open = end, !chunk.isEmpty else { return .none }
        chunks.append(chunk)
        bufferedBytes += chunk.count
        return wakeReader() ? .notifyReader : .none
    }

    /// Whether the producer must wait before adding more.
    var isFull: Bool { bufferedBytes >= capacity && !isEnded }

    /// The producer waits for space; resumed at once when there is some, or when the upload
    /// ended.
    mutating func waitForSpace(_ continuation: Continuation) -> SpaceAction {
        guard isFull else { return .resumeProducer(continuation) }
        producerWaiting = continuation
        return .wait
    }

    /// The producer has no more bytes, or failed with `error`.
    mutating func finish(_ error: (any Error)?) -> FinishAction {
        guard case .open = end else { return .none }
        end = error.map { .failed($0) } ?? .finished
        if error != nil { dropChunks() }
        switch (wakeReader(), takeProducer()) {
        case (false, nil): return .none
        case (true, nil): return .notifyReader
        case (false, let producer?): return .resumeProducer(producer)
        case (true, let producer?): return .notifyReaderAndResumeProducer(producer)
        }
    }

    /// The engine stopped the upload (the transfer ended or was cancelled): the producer is
    /// released and what it adds later is dropped.
    mutating func cancel(with error: any Error) -> CancelAction {
        if case .open = end { end = .failed(error) }
        dropChunks()
        return takeProducer().map { .resumeProducer($0) } ?? .none
    }

    /// The engine reads up to `buffer.count` bytes.
    mutating func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadAction {
        if case .failed = end { return .failed }
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
            guard bufferedBytes < capacity, let producer = takeProducer() else { return .copied(copied) }
            return .copiedAndResumeProducer(copied, producer)
        }
        if case .finished = end { return .end }
        readerIsWaiting = true
        return .wait
    }

    /// Whether the engine is to be told it can read: its last read found nothing.
    private mutating func wakeReader() -> Bool {
        guard readerIsWaiting else { return false }
        readerIsWaiting = false
        return true
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
