/// Joins the server's data frames into messages and reads its control frames, in the order
/// RFC 6455 §5.4 allows: a text or binary frame starts a message, continuation frames extend it
/// until one is final, and pings, pongs and a close may come between the fragments.
///
/// Text is checked as UTF-8 one fragment at a time, a character split between fragments
/// included, so a bad byte fails the message (1007) when its frame arrives, not at the end.
/// The limit holds for the whole message; ``messageLengthSoFar`` lets the decoder refuse the
/// next fragment from its header.
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
        var payload: [UInt8]
        var utf8 = WebSocketUTF8Validator()
    }

    /// The most payload bytes one message may have, its fragments together.
    let maximumMessageLength: Int
    private var fragmented: FragmentedMessage?

    init(maximumMessageLength: Int) {
        self.maximumMessageLength = maximumMessageLength
    }

    /// The payload bytes of the fragmented message in progress, 0 when none is.
    var messageLengthSoFar: Int { fragmented?.payload.count ?? 0 }

    /// What `frame` completes: a message, a control frame, or nothing yet (a fragment that is
    /// not the last); or the violation it is.
    mutating func receive(_ frame: WebSocketFrame) throws(WebSocketError) -> Event? {
        switch frame.opcode {
        case .ping:
            return .ping(frame.payload)
        case .pong:
            return .pong(frame.payload)
        case .close:
            return .close(try WebSocketCloseStatus(closePayload: frame.payload))
        case .text, .binary:
            guard fragmented == nil else { throw .messageInsideFragmentedMessage(frame.opcode) }
            return try extend(FragmentedMessage(opcode: frame.opcode, payload: []), with: frame)
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
        let (length, overflow) = message.payload.count.addingReportingOverflow(frame.payload.count)
        guard !overflow, length <= maximumMessageLength else {
            throw .messageTooLarge(
                length: UInt64(message.payload.count) + UInt64(frame.payload.count), limit: maximumMessageLength,
                fragmented: !message.payload.isEmpty)
        }
        if message.opcode == .text, !message.utf8.validate(frame.payload) { throw .invalidUTF8(.message) }
        if message.payload.isEmpty {
            message.payload = frame.payload
        } else {
            message.payload.append(contentsOf: frame.payload)
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
