import Foundation

/// A streamed body's bytes on their way to its reader, gathered into one chunk per
/// ``CurlBufferSizes/largeReceive``, or fewer bytes once the socket has nothing more: each chunk
/// handed over wakes a reader that keeps up, once per chunk rather than once per read.
///
/// Owns its gathered buffer until ``takeChunk()``; its transfer gives a buffer still held back
/// with ``giveBackBuffer()`` when it goes.
struct CurlStreamedBody {
    private let pool: CurlBodyBufferPool
    private var pending: CurlBodyBufferPool.Buffer?
    private var pendingCount = 0
    /// Whether the last piece filled libcurl's receive buffer, and whether a piece arrived
    /// since the last turn of the event loop (see ``handsOver(atTurnEnd:socketHoldsMore:)``).
    private var lastPieceFilledReceiveBuffer = false
    private var receivedThisTurn = false
    /// Decoded bytes gathered for the reader, for the transfer's metrics.
    private(set) var byteCount = 0

    init(pool: CurlBodyBufferPool) {
        self.pool = pool
    }

    /// Whether the gathered chunk must go to the reader before `count` more bytes fit.
    func mustHandOver(before count: Int) -> Bool {
        guard let pending else { return false }
        return pendingCount + count > pending.capacity
    }

    /// Adds a piece (not empty) to the chunk; true when the chunk is full and goes to the reader now.
    mutating func gather(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        let buffer = pending ?? pool.take(atLeast: max(bytes.count, CurlBufferSizes.largeReceive))
        (buffer.pointer + pendingCount).copyMemory(from: base, byteCount: bytes.count)
        pending = buffer
        pendingCount += bytes.count
        byteCount += bytes.count
        lastPieceFilledReceiveBuffer = bytes.count >= CurlBufferSizes.streamedReceive
        receivedThisTurn = true
        return pendingCount >= CurlBufferSizes.largeReceive
    }

    /// The gathered chunk, for the reader; nil when nothing is gathered.
    mutating func takeChunk() -> Data? {
        guard let buffer = pending else { return nil }
        let chunk = pool.data(buffer, count: pendingCount)
        pending = nil
        pendingCount = 0
        return chunk
    }

    /// Whether the gathered chunk goes to the reader now; asked after each turn of libcurl
    /// (`atTurnEnd`) and before the transfer completes.
    ///
    /// At the end of a turn the chunk is kept only while more is certain to follow at once: a
    /// read in this turn filled libcurl's receive buffer and the socket still holds unread
    /// bytes, so the loop's next poll returns straight away and libcurl reads them. Anything
    /// else goes now: a short read means the socket was drained, and a turn that brought this
    /// transfer nothing (an HTTP/2 connection busy with other streams) ends the wait. No byte
    /// waits for bytes that have not arrived.
    mutating func handsOver(atTurnEnd: Bool, socketHoldsMore: @autoclosure () -> Bool) -> Bool {
        let progressed = receivedThisTurn
        if atTurnEnd { receivedThisTurn = false }
        guard pending != nil else { return false }
        return !Self.keepsGatheredPiece(
            atTurnEnd: atTurnEnd, receivedThisTurn: progressed, lastReadFilledBuffer: lastPieceFilledReceiveBuffer,
            socketHoldsMore: socketHoldsMore()
        )
    }

    /// The rule of ``handsOver(atTurnEnd:socketHoldsMore:)``: keep gathering only at the end of
    /// a turn that read a piece filling the receive buffer, while the socket holds more. The
    /// socket is asked (a system call) only when the rest holds.
    static func keepsGatheredPiece(
        atTurnEnd: Bool, receivedThisTurn: Bool, lastReadFilledBuffer: Bool, socketHoldsMore: @autoclosure () -> Bool
    ) -> Bool {
        atTurnEnd && receivedThisTurn && lastReadFilledBuffer && socketHoldsMore()
    }

    /// Gives back a buffer never handed over: the transfer failed or was abandoned.
    func giveBackBuffer() {
        if let pending { pool.give(pending) }
    }
}
