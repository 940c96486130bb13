/// Writes the client's frames: every one masked (RFC 6455 §5.3) with a key of its own from
/// `Generator`, its length in the shortest of the three forms (7, 16 or 64 bits).
///
/// The mask exists so that a script in a browser cannot choose the bytes an intermediary sees,
/// which needs keys the sender's code cannot predict: in use the generator is
/// `SystemRandomNumberGenerator` (the kernel's getrandom on Linux, arc4random on Apple
/// platforms); tests inject one that repeats a known key.
struct WebSocketFrameEncoder<Generator: RandomNumberGenerator> {
    private var generator: Generator

    init(generator: Generator) {
        self.generator = generator
    }

    /// The bytes of `frame`, masked with a fresh key.
    mutating func encode(_ frame: WebSocketFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        encode(frame, into: &bytes)
        return bytes
    }

    /// Appends the bytes of `frame`, masked with a fresh key, to `bytes`.
    mutating func encode(_ frame: WebSocketFrame, into bytes: inout [UInt8]) {
        let length = frame.payload.count
        bytes.reserveCapacity(bytes.count + 14 + length)
        bytes.append((frame.isFinal ? 0x80 : 0) | (frame.isCompressed ? WebSocketFrame.compressionBit : 0) | frame.opcode.rawValue)
        let maskBit: UInt8 = 0x80
        if length <= 125 {
            bytes.append(maskBit | UInt8(length))
        } else if length <= 0xFFFF {
            bytes.append(maskBit | 126)
            bytes.append(UInt8(truncatingIfNeeded: length >> 8))
            bytes.append(UInt8(truncatingIfNeeded: length))
        } else {
            bytes.append(maskBit | 127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
            }
        }
        let key: UInt32 = generator.next()
        for shift: UInt32 in [24, 16, 8, 0] {
            bytes.append(UInt8(truncatingIfNeeded: key >> shift))
        }
        let payloadStart = bytes.count
        bytes.append(contentsOf: frame.payload)
        Self.mask(&bytes[payloadStart...], with: key)
    }

    /// The bytes of a data message in frames of at most `maximumFramePayloadLength` bytes each:
    /// the first with the message's opcode, the others continuations, the last final. So a large
    /// message can be sent while control frames (a pong, a close) go between its fragments.
    mutating func encode(_ message: WebSocketMessage, maximumFramePayloadLength: Int) -> [UInt8] {
        encode(fragmentsOf: WebSocketFrame(opcode: message.opcode, payload: message.payload),
               maximumFramePayloadLength: maximumFramePayloadLength)
    }

    /// The bytes of a whole data frame's payload in frames of at most
    /// `maximumFramePayloadLength` bytes each, as above; the first keeps the frame's compression
    /// bit, which RFC 7692 §6.1 gives to a message's first frame only.
    mutating func encode(fragmentsOf message: WebSocketFrame, maximumFramePayloadLength: Int) -> [UInt8] {
        let payload = message.payload
        let step = max(1, maximumFramePayloadLength)
        var bytes: [UInt8] = []
        var offset = 0
        repeat {
            let end = min(payload.count, offset + step)
            let frame = WebSocketFrame(
                isFinal: end == payload.count, opcode: offset == 0 ? message.opcode : .continuation,
                payload: Array(payload[offset..<end]), isCompressed: offset == 0 && message.isCompressed)
            encode(frame, into: &bytes)
            offset = end
        } while offset < payload.count
        return bytes
    }

    /// XORs `bytes` with `key`, the first byte with the key's most significant byte as the key
    /// goes on the wire: masking and unmasking are the same operation.
    static func mask(_ bytes: inout ArraySlice<UInt8>, with key: UInt32) {
        let keyBytes = [UInt8(truncatingIfNeeded: key >> 24), UInt8(truncatingIfNeeded: key >> 16),
                        UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key)]
        // The buffer counts from 0 at the slice's first byte, which takes the key's first byte.
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices {
                buffer[index] ^= keyBytes[index & 3]
            }
        }
    }
}

extension WebSocketFrameEncoder: Sendable where Generator: Sendable {}

extension WebSocketFrameEncoder where Generator == SystemRandomNumberGenerator {
    /// An encoder whose keys come from the system's cryptographically secure generator.
    init() {
        self.init(generator: SystemRandomNumberGenerator())
    }
}
