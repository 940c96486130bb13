import Courier
import CourierWebSocket

/// The code and reason of a close frame (RFC 6455 §5.5.1, §7.1.5), as read from the server or
/// sent by the client.
///
/// The payload is empty, or a big-endian code followed by a UTF-8 reason of at most 123 bytes
/// (a control frame's 125 less the code). An empty payload is reported as
/// ``WebSocketCloseCode/noStatusReceived`` (1005), the code that never goes on the wire.
struct WebSocketCloseStatus: Equatable, Sendable, CustomStringConvertible {
    var code: WebSocketCloseCode
    var reason: String

    init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// The most reason bytes a close frame has room for.
    static let maximumReasonLength = WebSocketFrame.maximumControlPayloadLength - 2

    /// The status a close frame's payload carries, or the violation that payload is: one byte
    /// (a code cut short), a code not allowed on the wire (1002), or a reason that is not UTF-8
    /// (1007).
    init(closePayload payload: [UInt8]) throws(WebSocketError) {
        guard !payload.isEmpty else {
            self.init(code: .noStatusReceived)
            return
        }
        guard payload.count >= 2 else { throw .closePayloadOfOneByte }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isAllowedOnTheWire else { throw .closeCodeNotAllowed(code.rawValue) }
        let reason = payload[2...]
        var validator = WebSocketUTF8Validator()
        guard validator.validate(reason), validator.isAtCharacterBoundary else { throw .invalidUTF8(.closeReason) }
        self.init(code: code, reason: String(decoding: reason, as: UTF8.self))
    }

    /// The payload of a close frame that carries this status: empty for
    /// ``WebSocketCloseCode/noStatusReceived``, which a close frame says by having no code, and
    /// otherwise the code and the reason. Callers check the reason's length first
    /// (``maximumReasonLength``); ``truncatingReason()`` makes one fit.
    var closePayload: [UInt8] {
        guard code != .noStatusReceived else { return [] }
        return [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + Array(reason.utf8)
    }

    /// This status with its reason cut, at a character boundary, to what a close frame holds:
    /// for reasons the client writes itself, such as an error's description.
    func truncatingReason() -> Self {
        Self(code: code, reason: WebSocket.fittingCloseReason(reason))
    }

    var description: String {
        reason.isEmpty ? "\(code)" : "\(code): \(reason)"
    }
}
