/// Joins the server's data frames into messages and reads its control frames, in the order
/// RFC 6455 §5.4 allows: a text or binary frame starts a message, continuation frames extend it
/// until one is final, and pings, pongs and a close may come between the fragments.
///
/// Text is checked as UTF-8 one fragment at a time, a character split between fragments
/// included, so a bad byte fails the message (1007) when its frame arrives, not at the end.
/// The limit holds for the whole message; ``messageLengthSoFar`` lets the decoder refuse the
/// next fragment from its header.
///
/// A compressed message (permessage-deflate, its first frame with RSV1) is inflated one
/// fragment at a time as its frames arrive, and the inflated bytes are what is checked as UTF-8
/// and held. The limit then holds twice: for the payload received, as for any message, and for
/// what it inflates to, which the inflater stops at (1009).
struct WebSocketMessageAssembler: Sendable {
    /// What a frame amounts to, once it completes something.
    enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        case ping([UInt8])
        case pong([UInt8])
        /// The server's close frame, its payload read; an empty one is 1005.
        case close(WebSocketCloseStatus)
    }

    /// A message whose final frame has not come yet.
    private struct FragmentedMessage: Sendable {
        var opcode: WebSocketOpcode
        /// The message so far: inflated when it is compressed.
        var payload: [UInt8] = []
        var isCompressed = false
        /// The payload bytes received so far, compressed as they came.
        var receivedLength = 0
        var utf8 = WebSocketUTF8Validator()
    }

    /// The most payload bytes one message may have, its fragments together: as received, and
    /// once inflated.
    let maximumMessageLength: Int
    /// Present when permessage-deflate was agreed.
    private(set) var inflater: WebSocketInflater?
    private var fragmented: FragmentedMessage?

    init(maximumMessageLength: Int, inflater: WebSocketInflater? = nil) {
        self.maximumMessageLength = maximumMessageLength
        self.inflater = inflater
    }

    /// The payload bytes received of the fragmented message in progress, 0 when none is.
    var messageLengthSoFar: Int { fragmented?.receivedLength ?? 0 }

    /// What `frame` completes: a message, a control frame, or nothing yet (a fragment that is
    /// not the last); or the violation it is.
    mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) -> Event? {
        // The decoder refuses these from the header; this holds for frames from elsewhere.
        if frame.isCompressed {
            if frame.opcode.isControl { throw .compressionBitOnControlFrame(frame.opcode) }
            if frame.opcode == .continuation { throw .compressionBitOnContinuationFrame }
            if inflater == nil { throw .reservedBitsSet(WebSocketFrame.compressionBit) }
        }
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            return .close(try WebSocketCloseStatus(closePayload: frame.payload))
        case .text, .binary:
            guard fragmented == nil else { throw .messageInsideFragmentedMessage(frame.opcode) }
            return try extend(FragmentedMessage(opcode: frame.opcode, isCompressed: frame.isCompressed), with: frame)
        case .continuation:
            // Taken out while it grows, so that its payload is not copied.
            guard let message = fragmented.take() else { throw .continuationWithoutMessage }
            return try extend(message, with: frame)
        }
    }

    /// Adds a data frame's payload to `message`: the message when the frame is final, otherwise
    /// nothing, the message kept for the next fragment.
    private mutating func extend(_ message: consuming FragmentedMessage, with frame: WebSocketFrame) throws(WebSocketError) -> Event? {
        // The decoder refuses such a frame from its header; this holds for frames from elsewhere.
        let (length, overflow) = message.receivedLength.addingReportingOverflow(frame.payload.count)
        guard !overflow, length <= maximumMessageLength else {
            throw .messageTooLarge(
                length: UInt64(message.receivedLength) + UInt64(frame.payload.count), limit: maximumMessageLength,
                fragmented: message.receivedLength > 0)
        }
        message.receivedLength = length
        if message.isCompressed {
            let start = message.payload.count
            // Present: a compressed frame without it was refused above.
            try inflater?.inflate(frame.payload, isFinal: frame.isFinal, onto: &message.payload, limit: maximumMessageLength)
            if message.opcode == .text, !message.utf8.validate(message.payload[start...]) { throw .invalidUTF8(.message) }
        } else {
            if message.opcode == .text, !message.utf8.validate(frame.payload) { throw .invalidUTF8(.message) }
            if message.payload.isEmpty {
                message.payload = frame.payload
            } else {
                message.payload.append(contentsOf: frame.payload)
            }
        }
        guard frame.isFinal else {
            fragmented = message
            return nil
        }
        switch message.opcode {
        case .text:
            guard message.utf8.isAtCharacterBoundary else { throw .textEndsInsideCharacter }
            return .message(.text(String(decoding: message.payload, as: UTF8.self)))
        default:
            return .message(.binary(message.payload))
        }
    }
}
