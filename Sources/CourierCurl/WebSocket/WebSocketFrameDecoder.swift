/// Reads the server's frames out of the bytes of a connection, in whatever pieces they arrive:
/// a frame split anywhere, or several in one piece. A frame comes out once all of it is here;
/// a header that breaks RFC 6455 §5.2 is refused as soon as the bytes that show it are.
///
/// Memory stays bounded by the message limit: a data frame whose declared length would take
/// the message over it is refused from its header (1009), before any of its payload is
/// buffered, so a hostile server's endless or 2 GiB frame costs nothing. Control frames are
/// bounded by the protocol (125 bytes).
///
/// Reserved bits are refused (1002), RSV1 excepted when permessage-deflate was agreed
/// (``acceptsCompressedFrames``), and then only on a text or binary frame, the first of its
/// message (RFC 7692 §6.1). The limit holds for a compressed frame's payload as received; what
/// it inflates to is the inflater's to bound.
///
/// Client side only: a masked frame is a protocol error, since only clients mask. A length
/// written in more bytes than it needs is refused too. RFC 6455 §5.2 says the minimal encoding
/// MUST be used, a server that does otherwise is broken, and refusing it keeps one encoding per
/// frame, so that the decoder and the encoder are exact inverses.
struct WebSocketFrameDecoder: Sendable {
    /// A header read and taken off the buffer, whose payload is still arriving.
    private struct Header {
        var isFinal: Bool
        var opcode: WebSocketOpcode
        var isCompressed: Bool
        var payloadLength: Int
    }

    /// Whether permessage-deflate was agreed, so that RSV1 may mark a message's first frame.
    let acceptsCompressedFrames: Bool

    /// Received bytes; those before `start` are read and dropped on the next append.
    private var buffer: [UInt8] = []
    private var start = 0
    private var header: Header?

    init(acceptsCompressedFrames: Bool = false) {
        self.acceptsCompressedFrames = acceptsCompressedFrames
    }

    /// Bytes from the connection, in the order received.
    mutating func append(_ bytes: some Sequence<UInt8>) {
        dropReadBytes()
        buffer.append(contentsOf: bytes)
    }

    /// Bytes received and not yet part of a frame handed out, a header read included.
    var bufferedByteCount: Int { buffer.count - start }

    /// The next whole frame, nil until all its bytes are here, or the violation its header is.
    ///
    /// - Parameters:
    ///   - messageLengthSoFar: The payload bytes of the fragmented message in progress, so that
    ///     the limit holds for the message and not only for each frame; 0 when none is.
    ///   - maximumMessageLength: The most payload bytes one data message may have.
    mutating func nextFrame(messageLengthSoFar: Int = 0, maximumMessageLength: Int) throws(WebSocketError) -> WebSocketFrame? {
        if header == nil {
            header = try readHeader(messageLengthSoFar: messageLengthSoFar, maximumMessageLength: maximumMessageLength)
        }
        guard let header, buffer.count - start >= header.payloadLength else { return nil }
        let payload = Array(buffer[start..<start + header.payloadLength])
        start += header.payloadLength
        self.header = nil
        return WebSocketFrame(isFinal: header.isFinal, opcode: header.opcode, payload: payload, isCompressed: header.isCompressed)
    }

    /// The header at `start`, taken off the buffer, or nil until all its bytes are here.
    private mutating func readHeader(messageLengthSoFar: Int, maximumMessageLength: Int) throws(WebSocketError) -> Header? {
        let available = buffer.count - start
        guard available >= 1 else { return nil }
        let first = buffer[start]
        let allowedBits = acceptsCompressedFrames ? WebSocketFrame.compressionBit : 0
        let reservedBits = first & 0x70
        guard reservedBits & ~allowedBits == 0 else { throw .reservedBitsSet(reservedBits) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw .unknownOpcode(first & 0x0F) }
        let isCompressed = reservedBits != 0
        if isCompressed {
            if opcode.isControl { throw .compressionBitOnControlFrame(opcode) }
            if opcode == .continuation { throw .compressionBitOnContinuationFrame }
        }
        let isFinal = first & 0x80 != 0
        guard isFinal || !opcode.isControl else { throw .fragmentedControlFrame(opcode) }

        guard available >= 2 else { return nil }
        let second = buffer[start + 1]
        guard second & 0x80 == 0 else { throw .maskedFrame }
        let length: UInt64
        let headerLength: Int
        switch second & 0x7F {
        case 126:
            headerLength = 4
            guard available >= headerLength else { return nil }
            length = bigEndian(buffer[start + 2..<start + 4])
            guard length > 125 else { throw .nonMinimalLength(length, lengthBytes: 2) }
        case 127:
            headerLength = 10
            guard available >= headerLength else { return nil }
            length = bigEndian(buffer[start + 2..<start + 10])
            guard length >> 63 == 0 else { throw .lengthWithTopBitSet }
            guard length > 0xFFFF else { throw .nonMinimalLength(length, lengthBytes: 8) }
        case let short:
            headerLength = 2
            length = UInt64(short)
        }

        if opcode.isControl {
            guard length <= UInt64(WebSocketFrame.maximumControlPayloadLength) else {
                throw .controlFrameTooLong(opcode, length: length)
            }
        } else {
            let room = UInt64(max(0, maximumMessageLength - max(0, messageLengthSoFar)))
            guard length <= room else {
                let (total, overflow) = length.addingReportingOverflow(UInt64(max(0, messageLengthSoFar)))
                throw .messageTooLarge(
                    length: overflow ? .max : total, limit: maximumMessageLength, fragmented: messageLengthSoFar > 0)
            }
        }
        start += headerLength
        // Below the limit, an Int: at most the message limit, or 125 for a control frame.
        return Header(isFinal: isFinal, opcode: opcode, isCompressed: isCompressed, payloadLength: Int(length))
    }

    /// Drops the bytes already read: all of them at once when nothing else is buffered, or by
    /// moving the rest down once they are at least half the buffer, so that each byte moves at
    /// most about once. A large buffer's storage is let go rather than kept for the next frame.
    private mutating func dropReadBytes() {
        guard start > 0 else { return }
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 64 * 1024)
            start = 0
        } else if start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
    }
}

private func bigEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
}
