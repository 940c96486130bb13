internal import CZlib

/// One raw DEFLATE stream of zlib (RFC 1951, no zlib or gzip wrapper), compressing or
/// decompressing: the only code that calls zlib. permessage-deflate (RFC 7692) keeps one of each
/// per WebSocket connection, and its window from one message to the next unless a
/// `no_context_takeover` was agreed.
///
/// The `z_stream` lives at a fixed address: zlib's internal state points back at it and refuses
/// a stream that moved. Each call is handed its input and output afresh, and says how much of
/// each it used; zlib keeps no pointer into either between calls.
///
/// A class, because the stream cannot be copied by copying its bytes; ``copy()`` makes an
/// independent one with `deflateCopy` or `inflateCopy`, so the codec values that hold one copy
/// it on write and keep value semantics. An instance is mutated only while uniquely referenced
/// (the codecs check), and a shared one is only read, by ``copy()``: hence `@unchecked Sendable`.
final class ZlibStream: @unchecked Sendable {
    enum Direction: Sendable {
        case deflate
        case inflate
    }

    /// What one call did, in zlib's terms.
    enum Status: Equatable, Sendable {
        /// Progress was made; more may follow with more input or more room.
        case ok
        /// An inflate stream met a block with `BFINAL` set: the DEFLATE stream is over.
        case streamEnd
        /// No progress was possible: no input left and nothing pending, or no room.
        case noProgress
        /// The compressed data is not DEFLATE (inflate), with zlib's words for why.
        case dataError(String)
        /// zlib failed otherwise (out of memory, an inconsistent stream): its code and words.
        case failed(code: Int32, message: String)
    }

    let direction: Direction
    /// The base-two logarithm of the window zlib was set up with.
    let windowBits: Int
    private let stream: UnsafeMutablePointer<z_stream>

    private init(direction: Direction, windowBits: Int, stream: UnsafeMutablePointer<z_stream>) {
        self.direction = direction
        self.windowBits = windowBits
        self.stream = stream
    }

    /// A compressing stream with a window of 2^`windowBits` bytes (9...15), or nil when zlib
    /// cannot set one up (out of memory, or a window it refuses).
    static func deflater(windowBits: Int, level: Int32 = Z_DEFAULT_COMPRESSION, memoryLevel: Int32 = 8) -> ZlibStream? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits ask for raw DEFLATE, without zlib's header and trailer.
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, -Int32(windowBits), memoryLevel, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
        return ZlibStream(direction: .deflate, windowBits: windowBits, stream: stream)
    }

    /// A decompressing stream for DEFLATE data whose window is at most 2^`windowBits` bytes
    /// (8...15), or nil when zlib cannot set one up.
    static func inflater(windowBits: Int) -> ZlibStream? {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = inflateInit2_(stream, -Int32(windowBits), zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
        return ZlibStream(direction: .inflate, windowBits: windowBits, stream: stream)
    }

    deinit {
        switch direction {
        case .deflate: deflateEnd(stream)
        case .inflate: inflateEnd(stream)
        }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// An independent stream in the same state, window included; nil when out of memory.
    func copy() -> ZlibStream? {
        let destination = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        destination.initialize(to: z_stream())
        let status = switch direction {
        case .deflate: deflateCopy(destination, stream)
        case .inflate: inflateCopy(destination, stream)
        }
        guard status == Z_OK else {
            destination.deinitialize(count: 1)
            destination.deallocate()
            return nil
        }
        return ZlibStream(direction: direction, windowBits: windowBits, stream: destination)
    }

    /// How a ``deflate(_:into:flush:)`` call ends its output.
    enum Flush: Sendable {
        /// As much as zlib chooses; the rest waits for more input.
        case none
        /// Everything so far, byte-aligned and followed by an empty stored block
        /// (`00 00 ff ff`), the window kept: what RFC 7692 §7.2.1 builds a message's end on.
        case sync

        fileprivate var value: Int32 {
            switch self {
            case .none: Z_NO_FLUSH
            case .sync: Z_SYNC_FLUSH
            }
        }
    }

    /// One `deflate` call over `input` into `output`: the status, and how many bytes of each it
    /// used.
    func deflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer, flush: Flush
    ) -> (status: Status, consumed: Int, produced: Int) {
        run(input, output) { CZlib.deflate($0, flush.value) }
    }

    /// One `inflate` call over `input` into `output`, writing out all it can
    /// (`Z_SYNC_FLUSH`): the status, and how many bytes of each it used.
    func inflate(
        _ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer
    ) -> (status: Status, consumed: Int, produced: Int) {
        run(input, output) { CZlib.inflate($0, Z_SYNC_FLUSH) }
    }

    private func run(
        _ input: UnsafeRawBufferPointer, _ output: UnsafeMutableRawBufferPointer, _ call: (z_streamp) -> Int32
    ) -> (status: Status, consumed: Int, produced: Int) {
        // zlib's counts are 32 bits; callers hand it pieces far smaller than that.
        let inputCount = min(input.count, Int(UInt32.max))
        let outputCount = min(output.count, Int(UInt32.max))
        // zlib never writes through next_in; its type is not const only for old compilers' sake.
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(inputCount)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(outputCount)
        let code = call(stream)
        let consumed = inputCount - Int(stream.pointee.avail_in)
        let produced = outputCount - Int(stream.pointee.avail_out)
        // Nothing may point into the caller's buffers once they are gone.
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        stream.pointee.next_out = nil
        stream.pointee.avail_out = 0
        let status: Status = switch code {
        case Z_OK: .ok
        case Z_STREAM_END: .streamEnd
        case Z_BUF_ERROR: .noProgress
        case Z_DATA_ERROR: .dataError(message ?? "invalid DEFLATE data")
        default: .failed(code: code, message: message ?? "zlib error \(code)")
        }
        return (status, consumed, produced)
    }

    /// Whether an inflate stream stopped between blocks, waiting for the next one's header:
    /// where every whole message leaves it (bit 128 of `data_type`, which zlib sets on every
    /// return of `inflate`).
    var isBetweenBlocks: Bool {
        stream.pointee.data_type & 128 != 0
    }

    /// zlib's words for the last error, if it left any.
    private var message: String? {
        stream.pointee.msg.map { String(cString: $0) }
    }

    /// Starts a new DEFLATE stream with an empty window; false if zlib refuses.
    @discardableResult
    func reset() -> Bool {
        switch direction {
        case .deflate: deflateReset(stream) == Z_OK
        case .inflate: inflateReset(stream) == Z_OK
        }
    }

    /// The inflate window's contents (at most 2^``windowBits`` bytes, the most recent output),
    /// or nil if zlib refuses.
    func window() -> [UInt8]? {
        guard direction == .inflate else { return nil }
        var length: uInt = 0
        guard inflateGetDictionary(stream, nil, &length) == Z_OK else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let status = bytes.withUnsafeMutableBufferPointer { buffer in
            inflateGetDictionary(stream, buffer.baseAddress, &length)
        }
        guard status == Z_OK else { return nil }
        return Array(bytes.prefix(Int(length)))
    }

    /// Presets the window of a raw inflate stream, which zlib allows at any point, so that the
    /// data that follows may refer back into `bytes`; false if zlib refuses.
    func setWindow(_ bytes: [UInt8]) -> Bool {
        guard direction == .inflate else { return false }
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBufferPointer { buffer in
            inflateSetDictionary(stream, buffer.baseAddress, uInt(buffer.count)) == Z_OK
        }
    }
}
