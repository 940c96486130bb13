/// Compresses the client's messages for permessage-deflate (RFC 7692 §7.2.1): a whole message
/// at once, flushed with an empty stored block so that it ends on a byte, whose 4 bytes
/// `00 00 ff ff` are then taken off, as the server puts them back.
///
/// The window carries over from one message to the next, so that a message may refer back into
/// those before it, unless `client_no_context_takeover` was agreed: then each message starts
/// afresh, and the server may keep no window for the client.
///
/// zlib cannot compress with a window of 256 bytes (8 bits): since 1.2.9 `deflateInit2` refuses
/// a raw stream with 8, and before that it made it 9. When 8 is agreed, the deflater uses 9, as
/// Node.js does and as zlib itself did: zlib's compressor never refers further back than its
/// window less `MIN_LOOKAHEAD` (262 bytes), so with 512 bytes no match is more than 250 back,
/// and a server that inflates with 256 bytes reads every message. (Python's websockets refuses
/// 8 for its own compressor instead.)
///
/// A value: the zlib stream inside is copied on write, as the inflater's is. The stream is made
/// at the first message, so a connection that sends none never allocates one (with the default
/// window, zlib's compressor takes about 256 KiB).
struct WebSocketDeflater: Sendable {
    /// The client's window, 2^`windowBits` bytes (8...15), as agreed.
    let windowBits: Int
    /// Whether each message starts with an empty window.
    let noContextTakeover: Bool
    private var stream: ZlibStream?
    /// The error that left the stream unusable, given again for every later message: a message
    /// compressed after a failure could refer to bytes the server never saw.
    private var failure: WebSocketError?

    init(windowBits: Int = 15, noContextTakeover: Bool = false) {
        self.windowBits = windowBits
        self.noContextTakeover = noContextTakeover
    }

    init(_ parameters: WebSocketDeflateParameters) {
        self.init(windowBits: parameters.clientMaxWindowBits, noContextTakeover: parameters.clientNoContextTakeover)
    }

    /// The window zlib is set up with: the agreed one, but 9 for 8 (see above).
    var zlibWindowBits: Int { max(9, windowBits) }

    /// The payload of a compressed message whose content is `payload`.
    ///
    /// - Throws: ``WebSocketError/compressionFailed(_:)`` when zlib cannot compress, from then
    ///   on for every message.
    mutating func compress(_ payload: [UInt8]) throws(WebSocketError) -> [UInt8] {
        if let failure { throw failure }
        // An empty stored block, less the 4 bytes the receiver appends (RFC 7692 §7.2.3.6). zlib
        // would write nothing at all for a second flush in a row, which does not inflate.
        if payload.isEmpty { return [0x00] }
        do throws(WebSocketError) {
            let stream = try uniqueStream()
            var output = try compress(payload, with: stream)
            // A sync flush ends with the empty stored block; the receiver appends it again.
            guard output.count >= 4, output.suffix(4).elementsEqual(WebSocketInflater.trailer) else {
                throw .compressionFailed("zlib's flushed output does not end with an empty stored block")
            }
            output.removeLast(4)
            if noContextTakeover, !stream.reset() {
                throw .compressionFailed("zlib could not reset its deflate stream")
            }
            return output
        } catch {
            failure = error
            throw error
        }
    }

    /// The stream to use now, made on first use and copied if another deflater shares it.
    private mutating func uniqueStream() throws(WebSocketError) -> ZlibStream {
        // Checked before anything else holds a reference, which would make it look shared.
        if isKnownUniquelyReferenced(&stream), let stream { return stream }
        let fresh = if let stream { stream.copy() } else { ZlibStream.deflater(windowBits: zlibWindowBits) }
        guard let fresh else { throw .compressionFailed("zlib could not set up a stream to deflate with") }
        stream = fresh
        return fresh
    }

    /// All of `payload` through the stream, then a sync flush: zlib's output.
    private func compress(_ payload: [UInt8], with stream: ZlibStream) throws(WebSocketError) -> [UInt8] {
        // Text and JSON usually shrink severalfold; the output grows as needed otherwise.
        var output: [UInt8] = []
        output.reserveCapacity(payload.count / 2 + 64)
        var offset = 0
        var chunk = 16 * 1024
        while true {
            let start = output.count
            output.append(contentsOf: repeatElement(0, count: chunk))
            let result = payload.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { buffer in
                    stream.deflate(
                        UnsafeRawBufferPointer(rebasing: input[offset...]),
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[start...]), flush: .sync)
                }
            }
            offset += result.consumed
            output.removeLast(chunk - result.produced)
            switch result.status {
            case .ok, .noProgress:
                // Done once zlib took all the input and left room unused: the flush is complete.
                if offset == payload.count, result.produced < chunk { return output }
                if result.status == .noProgress, result.produced == 0 {
                    throw .compressionFailed("zlib made no progress compressing")
                }
            case .dataError(let reason), .failed(_, let reason):
                throw .compressionFailed(reason)
            case .streamEnd:
                throw .compressionFailed("zlib ended the DEFLATE stream, which a sync flush never does")
            }
            chunk = min(chunk * 2, 1 << 20)
        }
    }
}
