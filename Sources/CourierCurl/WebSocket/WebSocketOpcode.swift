/// What a frame carries: the low four bits of its first byte (RFC 6455 §5.2, §11.8). The values
/// not listed here (3–7, 0xB–0xF) are reserved, and a frame that uses one fails the connection.
enum WebSocketOpcode: UInt8, Sendable, CustomStringConvertible {
    /// A later fragment of the text or binary message a frame before it started.
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong: at most 125 bytes of payload, never fragmented, and allowed between
    /// the fragments of a message (RFC 6455 §5.5). The protocol marks them by the opcode's high bit.
    var isControl: Bool { rawValue & 0x8 != 0 }

    var description: String {
        switch self {
        case .continuation: "continuation"
        case .text: "text"
        case .binary: "binary"
        case .close: "close"
        case .ping: "ping"
        case .pong: "pong"
        }
    }
}
