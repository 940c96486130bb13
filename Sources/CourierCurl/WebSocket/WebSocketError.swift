import CourierWebSocket

/// What went wrong on a WebSocket connection: the server broke the protocol, the connection
/// ended before the close handshake, or the client was asked for something it refuses to send.
///
/// A violation by the server carries the close code the client fails the connection with
/// (``closeCode``): 1002 for a malformed or out-of-order frame or compressed data that does not
/// inflate, 1007 for text that is not UTF-8, 1009 for a message over the limit, compressed or
/// not. Each description says what happened and, where there is one, the limit.
enum WebSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    // MARK: The server broke the framing or the message order (1002)

    /// A frame from the server had its mask bit set; only clients mask (RFC 6455 §5.1).
    case maskedFrame
    /// A frame had reserved bits set (the bits, as in the first byte), with no extension
    /// negotiated that defines them.
    case reservedBitsSet(UInt8)
    /// A frame's opcode is one RFC 6455 reserves.
    case unknownOpcode(UInt8)
    /// A close, ping or pong frame without its final bit.
    case fragmentedControlFrame(WebSocketOpcode)
    /// A close, ping or pong frame of more than 125 bytes.
    case controlFrameTooLong(WebSocketOpcode, length: UInt64)
    /// A length written in more bytes than it needs (2 or 8), which RFC 6455 §5.2 forbids.
    case nonMinimalLength(UInt64, lengthBytes: Int)
    /// A 64-bit length with its most significant bit set.
    case lengthWithTopBitSet
    /// A continuation frame with no fragmented message to continue.
    case continuationWithoutMessage
    /// A text or binary frame while a fragmented message still waited for its final frame.
    case messageInsideFragmentedMessage(WebSocketOpcode)
    /// A close frame whose payload is one byte: a code cut short.
    case closePayloadOfOneByte
    /// A close frame with a code that must not be sent (RFC 6455 §7.4).
    case closeCodeNotAllowed(UInt16)
    /// Bytes after the server's close frame, which must be its last.
    case bytesAfterClose
    /// A close, ping or pong frame with RSV1, permessage-deflate's bit: control frames are
    /// never compressed (RFC 7692 §6.1).
    case compressionBitOnControlFrame(WebSocketOpcode)
    /// A continuation frame with RSV1: only a message's first frame says it is compressed
    /// (RFC 7692 §6.1).
    case compressionBitOnContinuationFrame
    /// A compressed message that is not DEFLATE data, with zlib's words for why. RFC 7692 §8
    /// only says to fail the connection; see ``WebSocketInflater`` for why with 1002.
    case invalidCompressedData(String)

    // MARK: The server sent text that is not UTF-8 (1007)

    /// Where text that is not UTF-8 was found.
    enum Text: Sendable {
        case message
        case closeReason
    }

    /// A byte that cannot be where it is in UTF-8: not a lead byte, an overlong form, a
    /// surrogate, or a code point past U+10FFFF.
    case invalidUTF8(Text)
    /// A text message whose last fragment ends inside a character.
    case textEndsInsideCharacter

    // MARK: The server sent more than the client holds (1009)

    /// A message over the limit, found from a frame's declared length (before its payload was
    /// read) or from the fragments received so far and the next one's declared length.
    case messageTooLarge(length: UInt64, limit: Int, fragmented: Bool)
    /// A compressed message that inflates to more than the limit; inflating stopped there.
    case compressedMessageTooLarge(limit: Int)

    // MARK: The client could not go on (1011)

    /// zlib could not compress or inflate (out of memory, a stream it cannot reset), with its
    /// words. Sending refuses the message and every later one; receiving closes with 1011.
    case compressionFailed(String)

    // MARK: The connection ended without the close handshake (the user sees 1006)

    /// The connection ended, or failed, before a close frame came from the server.
    case connectionEndedWithoutClose
    /// The client sent a close frame and the server's did not come in time.
    case closeTimedOut

    // MARK: Refused by the client; nothing was sent

    /// A message, ping or close after the client sent or received a close frame.
    case sendAfterClose
    /// A ping or pong payload of more than 125 bytes.
    case controlPayloadTooLong(Int)
    /// A close reason of more than 123 UTF-8 bytes.
    case closeReasonTooLong(Int)
    /// A close code that must not be sent (RFC 6455 §7.4).
    case closeCodeNotSendable(WebSocketCloseCode)

    /// The code the client closes with when this error fails the connection: the server caused
    /// it, or the client's zlib failed (1011). Nil when there is no close frame to send: the
    /// connection ended, or the client refused a call.
    var closeCode: WebSocketCloseCode? {
        switch self {
        case .maskedFrame, .reservedBitsSet, .unknownOpcode, .fragmentedControlFrame, .controlFrameTooLong,
            .nonMinimalLength, .lengthWithTopBitSet, .continuationWithoutMessage, .messageInsideFragmentedMessage,
            .closePayloadOfOneByte, .closeCodeNotAllowed, .bytesAfterClose, .compressionBitOnControlFrame,
            .compressionBitOnContinuationFrame, .invalidCompressedData:
            .protocolError
        case .invalidUTF8, .textEndsInsideCharacter:
            .invalidFramePayloadData
        case .messageTooLarge, .compressedMessageTooLarge:
            .messageTooBig
        case .compressionFailed:
            .internalServerError
        case .connectionEndedWithoutClose, .closeTimedOut, .sendAfterClose, .controlPayloadTooLong,
            .closeReasonTooLong, .closeCodeNotSendable:
            nil
        }
    }

    var description: String {
        switch self {
        case .maskedFrame:
            "the server sent a masked frame; only a client masks its frames"
        case .reservedBitsSet(let bits):
            "the server sent a frame with reserved bits \(hex(bits)) set, and no extension defines them"
        case .unknownOpcode(let opcode):
            "the server sent a frame with the reserved opcode \(hex(opcode))"
        case .fragmentedControlFrame(let opcode):
            "the server sent a \(opcode) frame without the final bit; control frames are never fragmented"
        case .controlFrameTooLong(let opcode, let length):
            "the server sent a \(opcode) frame of \(length) bytes, over the 125-byte limit for control frames"
        case .nonMinimalLength(let length, let lengthBytes):
            "the server wrote the length \(length) in \(lengthBytes) bytes, more than it needs"
        case .lengthWithTopBitSet:
            "the server sent a frame whose 64-bit length has its most significant bit set"
        case .continuationWithoutMessage:
            "the server sent a continuation frame with no fragmented message to continue"
        case .messageInsideFragmentedMessage(let opcode):
            "the server started a \(opcode) message before it finished its fragmented message"
        case .closePayloadOfOneByte:
            "the server sent a close frame of one byte, a status code cut short"
        case .closeCodeNotAllowed(let code):
            "the server sent the close code \(code), which must not be sent"
        case .bytesAfterClose:
            "the server sent bytes after its close frame"
        case .compressionBitOnControlFrame(let opcode):
            "the server set the compression bit (RSV1) on a \(opcode) frame; control frames are never compressed"
        case .compressionBitOnContinuationFrame:
            "the server set the compression bit (RSV1) on a continuation frame; only a message's first frame carries it"
        case .invalidCompressedData(let reason):
            "the server sent a compressed message that does not inflate: \(reason)"
        case .invalidUTF8(.message):
            "the server sent a text message that is not UTF-8"
        case .invalidUTF8(.closeReason):
            "the server sent a close reason that is not UTF-8"
        case .textEndsInsideCharacter:
            "the server sent a text message that ends inside a UTF-8 character"
        case .messageTooLarge(let length, let limit, let fragmented):
            fragmented
                ? "the server sent a fragmented message of at least \(byteCount(length)), over the \(limitDescription(limit)) message limit"
                : "the server sent a frame of \(byteCount(length)), over the \(limitDescription(limit)) message limit"
        case .compressedMessageTooLarge(let limit):
            "the server sent a compressed message that inflates to more than \(byteCount(UInt64(max(0, limit))))"
        case .compressionFailed(let reason):
            "the client could not compress or inflate: \(reason)"
        case .connectionEndedWithoutClose:
            "the connection ended before the server sent a close frame"
        case .closeTimedOut:
            "the server did not answer the client's close frame in time"
        case .sendAfterClose:
            "the WebSocket is closing or closed; nothing more can be sent"
        case .controlPayloadTooLong(let count):
            "a ping or pong of \(count) bytes is over the 125-byte limit for control frames"
        case .closeReasonTooLong(let count):
            "a close reason of \(count) bytes is over the \(WebSocketCloseStatus.maximumReasonLength)-byte limit"
        case .closeCodeNotSendable(let code):
            "the close code \(code) must not be sent"
        }
    }
}

private func hex(_ byte: UInt8) -> String {
    "0x" + String(byte, radix: 16, uppercase: true)
}

/// A limit as an adjective: "99-byte", "16 MiB".
private func limitDescription(_ limit: Int) -> String {
    limit < 1024 ? "\(limit)-byte" : byteCount(UInt64(max(0, limit)))
}

/// `count` in the largest binary unit it reaches, to one decimal where it is not whole:
/// "100 bytes", "1.5 KiB", "16 MiB", "2 GiB".
private func byteCount(_ count: UInt64) -> String {
    let units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]
    guard count >= 1024 else { return count == 1 ? "1 byte" : "\(count) bytes" }
    var unit = 0
    var scale: UInt64 = 1024
    while unit + 1 < units.count, count / scale >= 1024 {
        unit += 1
        scale *= 1024
    }
    let tenths = (count % scale) * 10 / scale
    let whole = count / scale
    return tenths == 0 ? "\(whole) \(units[unit])" : "\(whole).\(tenths) \(units[unit])"
}
