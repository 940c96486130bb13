/// Decompresses the server's permessage-deflate messages (RFC 7692 §7.2.2), one frame's payload
/// at a time: the payloads of a message's frames joined are DEFLATE data less the 4 bytes
/// `00 00 ff ff` the server took off its end, which the inflater puts back after the final frame.
///
/// The window carries over from one message to the next, which the server's may refer back
/// into, unless the server agreed to `server_no_context_takeover`: then each message starts
/// afresh.
///
/// The output is bounded, since a few KiB of DEFLATE can stand for gigabytes: zlib writes at most
/// ``chunkSize`` bytes per call, and never more than one byte past the room left under the limit,
/// so a message that would inflate past it is refused (1009) as soon as it does, having cost at
/// most the limit and one byte, whatever the compressed data says. The message's own buffer
/// grows no further than the limit either.
///
/// Data that is not DEFLATE fails the connection with 1002 (protocol error). RFC 7692 §8 says
/// only to fail the connection; 1007 (data inconsistent with the message's type) would fit a
/// payload that decompresses but is not what its opcode says, such as text that is not UTF-8,
/// which is checked after inflating. A compressed payload that does not decompress is a broken
/// frame, which Python's websockets reports as 1002 ("decompression failed"), as does this.
///
/// A value: the zlib stream inside is copied on write (``ZlibStream/copy()``), so a copy of the
/// inflater, or of the state that holds it, goes on independently. The stream is made at the
/// first compressed message, so a connection that receives none never allocates one.
struct WebSocketInflater: Sendable {
    /// What the server took off the end of each message and the inflater puts back.
    static let trailer: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]
    /// The most bytes one zlib call writes.
    static let chunkSize = 64 * 1024

    /// The server's window, 2^`windowBits` bytes (8...15), as agreed.
    let windowBits: Int
    /// Whether the server starts each message with an empty window.
    let noContextTakeover: Bool
    private var stream: ZlibStream?
    /// The DEFLATE stream ended inside the message in progress (a block with `BFINAL` set, which
    /// RFC 7692 §7.2.3.4 allows): what follows in the message is padding, skipped.
    private var streamEnded = false
    /// Whether a message is in progress: its first frame came, its final frame not yet.
    private var inMessage = false
    /// The bytes zlib wrote for the message in progress or the last one, a refused last piece
    /// included: how much memory a bomb got out of the client.
    private(set) var inflatedByteCount = 0

    init(windowBits: Int = 15, noContextTakeover: Bool = false) {
        self.windowBits = windowBits
        self.noContextTakeover = noContextTakeover
    }

    init(_ parameters: WebSocketDeflateParameters) {
        self.init(windowBits: parameters.serverMaxWindowBits, noContextTakeover: parameters.serverNoContextTakeover)
    }

    /// Inflates one frame's payload of a compressed message onto `message`, which holds what the
    /// message's frames before it inflated to; after the final frame, ends the message.
    ///
    /// - Throws: ``WebSocketError/compressedMessageTooLarge(limit:)`` once `message` would hold
    ///   more than `limit` bytes (`message` then holds what fitted), or
    ///   ``WebSocketError/invalidCompressedData(_:)`` when the payload is not DEFLATE data.
    mutating func inflate(_ payload: [UInt8], isFinal: Bool, onto message: inout [UInt8], limit: Int) throws(WebSocketError) {
        let stream = try uniqueStream()
        if !inMessage {
            inMessage = true
            inflatedByteCount = 0
        }
        try inflate(payload, with: stream, onto: &message, limit: limit)
        guard isFinal else { return }
        try inflate(Self.trailer, with: stream, onto: &message, limit: limit)
        // A message cut short leaves a block open, whose rest the next message would be read as.
        guard streamEnded || stream.isBetweenBlocks else { throw .invalidCompressedData("the message ends inside a DEFLATE block") }
        try endMessage(stream)
    }

    /// The stream to use now, made on first use and copied if another inflater shares it.
    private mutating func uniqueStream() throws(WebSocketError) -> ZlibStream {
        // Checked before anything else holds a reference, which would make it look shared.
        if isKnownUniquelyReferenced(&stream), let stream { return stream }
        let fresh = if let stream { stream.copy() } else { ZlibStream.inflater(windowBits: windowBits) }
        guard let fresh else { throw .compressionFailed("zlib could not set up a stream to inflate with") }
        stream = fresh
        return fresh
    }

    private mutating func inflate(
        _ input: [UInt8], with stream: ZlibStream, onto message: inout [UInt8], limit: Int
    ) throws(WebSocketError) {
        guard !streamEnded else { return }
        var offset = 0
        while true {
            let room = max(0, limit - message.count)
            // One byte more than fits, so that a message over the limit shows itself.
            let capacity = min(Self.chunkSize, room + 1)
            let result = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { scratch in
                let result = input.withUnsafeBytes { bytes in
                    stream.inflate(UnsafeRawBufferPointer(rebasing: bytes[offset...]), into: UnsafeMutableRawBufferPointer(scratch))
                }
                inflatedByteCount += result.produced
                if result.produced <= room {
                    Self.append(scratch[..<result.produced], to: &message, limit: limit)
                }
                return result
            }
            offset += result.consumed
            guard result.produced <= room else { throw .compressedMessageTooLarge(limit: limit) }
            switch result.status {
            case .ok:
                // A full buffer may leave more output pending; otherwise zlib took everything.
                if offset == input.count, result.produced < capacity { return }
            case .noProgress:
                // Only with nothing left to read: the output always has room for a byte.
                guard offset == input.count else { throw .invalidCompressedData("zlib stopped before the end of the data") }
                return
            case .streamEnd:
                streamEnded = true
                return
            case .dataError(let reason):
                throw .invalidCompressedData(reason)
            case .failed(_, let reason):
                throw .compressionFailed(reason)
            }
        }
    }

    /// Appends `bytes`, growing `message` geometrically as `append` would, but never past
    /// `limit`: a message just under it costs no more than it.
    private static func append(_ bytes: UnsafeMutableBufferPointer<UInt8>.SubSequence, to message: inout [UInt8], limit: Int) {
        let needed = message.count + bytes.count
        if needed > message.capacity {
            // `needed` is within the limit: the caller appends only what fits.
            message.reserveCapacity(min(max(needed, message.capacity * 2), max(needed, limit)))
        }
        message.append(contentsOf: bytes)
    }

    /// After a message's final frame: the next message starts with an empty window when the
    /// server takes none over, and, when the DEFLATE stream ended inside this one, starts a new
    /// stream that still sees the window, since the server's next message may refer back into it.
    private mutating func endMessage(_ stream: ZlibStream) throws(WebSocketError) {
        defer {
            streamEnded = false
            inMessage = false
        }
        if noContextTakeover {
            guard stream.reset() else { throw .compressionFailed("zlib could not reset its inflate stream") }
            return
        }
        guard streamEnded else { return }
        guard let window = stream.window(), stream.reset(), stream.setWindow(window) else {
            throw .compressionFailed("zlib could not carry the window over to a new inflate stream")
        }
    }
}
