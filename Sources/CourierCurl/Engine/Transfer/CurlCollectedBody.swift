import Foundation

/// A response body collected whole, up to its limit: small bodies grow in a `Data`, large ones
/// are written into a buffer from ``CurlBodyBufferPool`` and handed over without a copy.
///
/// Owns its pooled buffer until ``take()``; its transfer gives a buffer still held back with
/// ``giveBackBuffer()`` when it goes.
struct CurlCollectedBody {
    private let maximumBytes: Int
    private let pool: CurlBodyBufferPool
    /// Small bodies grow here; see ``CurlBodyBufferPool/minimumCapacity``.
    private var small = Data()
    private var pooled: CurlBodyBufferPool.Buffer?
    private var pooledCount = 0
    /// Whether capacity was reserved from the response's Content-Length, which happens once.
    private var hasReserved = false

    init(maximumBytes: Int, pool: CurlBodyBufferPool) {
        self.maximumBytes = max(0, maximumBytes)
        self.pool = pool
    }

    /// Decoded bytes collected so far.
    var count: Int { pooled == nil ? small.count : pooledCount }

    /// Appends decoded body bytes; the error when they pass the limit, and then nothing is kept.
    /// `contentLength` is asked once, before the first bytes are kept.
    mutating func append(_ bytes: UnsafeRawBufferPointer, contentLength: () -> Int64?) -> CurlError? {
        if !hasReserved {
            hasReserved = true
            // Content-Length counts encoded bytes; for an identity body it is exact, for a
            // compressed one a lower bound, and either way capped by the limit.
            if let length = contentLength() {
                let expected = Int(min(length, Int64(maximumBytes)))
                if expected >= CurlBodyBufferPool.minimumCapacity {
                    usePooledBuffer(atLeast: expected)
                } else {
                    small.reserveCapacity(expected)
                }
            }
        }
        let received = count
        guard received + bytes.count <= maximumBytes else {
            return CurlError(
                kind: .responseTooLarge, curlCode: 0,
                message: "the decoded body exceeds the limit of \(maximumBytes) bytes (Policies.maximumResponseBytes)"
            )
        }
        guard let base = bytes.baseAddress else { return nil }
        if pooled == nil, received + bytes.count > CurlBodyBufferPool.minimumCapacity {
            // No (or a lower-bound) Content-Length and the body turned out large: double, as Data would.
            usePooledBuffer(atLeast: 2 * (received + bytes.count))
        }
        if let full = pooled, pooledCount + bytes.count > full.capacity {
            usePooledBuffer(atLeast: 2 * (pooledCount + bytes.count))
        }
        if let buffer = pooled {
            (buffer.pointer + pooledCount).copyMemory(from: base, byteCount: bytes.count)
            pooledCount += bytes.count
        } else {
            small.append(base.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        return nil
    }

    /// Hands the body over; a pooled buffer goes with it, back to the pool when the `Data` goes.
    mutating func take() -> Data {
        if let buffer = pooled {
            pooled = nil
            return pool.data(buffer, count: pooledCount)
        }
        defer { small = Data() }
        return small
    }

    /// Gives back a buffer never handed over: the transfer failed or was abandoned.
    func giveBackBuffer() {
        if let pooled { pool.give(pooled) }
    }

    /// Moves the body into a pooled buffer of at least `byteCount` bytes, copying what arrived so
    /// far; called once it is known (Content-Length) or seen (growth) to be large.
    private mutating func usePooledBuffer(atLeast byteCount: Int) {
        let buffer = pool.take(atLeast: byteCount)
        if let old = pooled {
            buffer.pointer.copyMemory(from: old.pointer, byteCount: pooledCount)
            pool.give(old)
        } else {
            small.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { buffer.pointer.copyMemory(from: base, byteCount: bytes.count) }
            }
            pooledCount = small.count
            small = Data()
        }
        pooled = buffer
    }
}
