/// A whole data message, its fragments joined: text already checked as UTF-8, or bytes.
enum WebSocketMessage: Equatable, Sendable {
    case text(String)
    case binary([UInt8])

    /// The opcode of the message's first frame.
    var opcode: WebSocketOpcode {
        switch self {
        case .text: .text
        case .binary: .binary
        }
    }

    /// The payload as it goes on the wire.
    var payload: [UInt8] {
        switch self {
        case .text(let text): Array(text.utf8)
        case .binary(let bytes): bytes
        }
    }
}
