@testable import CourierCurl

/// A generator that returns one value forever, so that a mask key is known: `next() as UInt32`
/// is its low 32 bits.
struct RepeatingGenerator: RandomNumberGenerator {
    let value: UInt64

    func next() -> UInt64 { value }
}

/// SplitMix64: a small seeded generator, so a random test does the same thing on every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A frame as a server writes it, unmasked, built byte by byte rather than by the encoder, so
/// that tests can write what the encoder never would: reserved bits, reserved opcodes, lengths
/// in more bytes than they need.
func serverFrame(
    fin: Bool = true, reservedBits: UInt8 = 0, opcode: UInt8, payload: [UInt8] = [], lengthBytes: Int? = nil
) -> [UInt8] {
    var bytes: [UInt8] = [(fin ? 0x80 : 0) | reservedBits | opcode]
    bytes += lengthField(payload.count, lengthBytes: lengthBytes)
    return bytes + payload
}

/// The second byte and extended length of a frame header, unmasked: in `lengthBytes` (0, 2 or
/// 8) when given, otherwise in the fewest.
func lengthField(_ length: Int, lengthBytes: Int? = nil) -> [UInt8] {
    let form = lengthBytes ?? (length <= 125 ? 0 : length <= 0xFFFF ? 2 : 8)
    switch form {
    case 0: return [UInt8(length)]
    case 2: return [126, UInt8(length >> 8), UInt8(length & 0xFF)]
    default: return [127] + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(56 - 8 * $0)) }
    }
}

func serverFrame(fin: Bool = true, _ opcode: WebSocketOpcode, _ payload: [UInt8] = []) -> [UInt8] {
    serverFrame(fin: fin, opcode: opcode.rawValue, payload: payload)
}

func serverFrame(fin: Bool = true, _ opcode: WebSocketOpcode, _ text: String) -> [UInt8] {
    serverFrame(fin: fin, opcode: opcode.rawValue, payload: Array(text.utf8))
}

/// A close frame's payload: the code big-endian, then the reason.
func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
    [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
}

/// The client's masked frames rewritten as the same frames unmasked, for the client-side
/// decoder to read back; parsed here on their own, not by the codec under test. Nil when a
/// frame is not masked or is cut short.
func unmasked(_ wire: [UInt8]) -> [UInt8]? {
    var output: [UInt8] = []
    var index = 0
    while index < wire.count {
        guard wire.count - index >= 2, wire[index + 1] & 0x80 != 0 else { return nil }
        let first = wire[index]
        var length = Int(wire[index + 1] & 0x7F)
        index += 2
        let extended = length == 126 ? 2 : length == 127 ? 8 : 0
        guard wire.count - index >= extended + 4 else { return nil }
        if extended > 0 {
            length = wire[index..<index + extended].reduce(0) { $0 << 8 | Int($1) }
            index += extended
        }
        let key = Array(wire[index..<index + 4])
        index += 4
        guard wire.count - index >= length else { return nil }
        let payload = wire[index..<index + length].enumerated().map { $0.element ^ key[$0.offset % 4] }
        index += length
        output += [first] + lengthField(length, lengthBytes: extended) + payload
    }
    return output
}

/// `bytes` cut at the given offsets (sorted, inside the bytes) into pieces.
func pieces(of bytes: [UInt8], cutAt cuts: [Int]) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var start = 0
    for cut in cuts + [bytes.count] where cut >= start {
        result.append(Array(bytes[start..<cut]))
        start = cut
    }
    return result
}

/// Frames out of `pieces`, fed one at a time and drained after each, with the limit applying to
/// each frame as if it were a whole message; or the first violation.
func decodeFrames(_ pieces: [[UInt8]], maximumMessageLength: Int = 1 << 24) -> Result<[WebSocketFrame], WebSocketError> {
    var decoder = WebSocketFrameDecoder()
    var frames: [WebSocketFrame] = []
    do throws(WebSocketError) {
        for piece in pieces {
            decoder.append(piece)
            while let frame = try decoder.nextFrame(maximumMessageLength: maximumMessageLength) {
                frames.append(frame)
            }
        }
    } catch {
        return .failure(error)
    }
    return .success(frames)
}

/// Every read action the connection state returns for `pieces`, fed one at a time, each drained
/// until it needs more bytes.
func readActions(
    _ pieces: [[UInt8]], in state: inout WebSocketConnectionState
) -> [WebSocketConnectionState.ReadAction] {
    var actions: [WebSocketConnectionState.ReadAction] = []
    for piece in pieces {
        state.received(piece)
        while true {
            let action = state.nextReadAction()
            if action == .needMoreBytes { break }
            actions.append(action)
        }
    }
    return actions
}

func readActions(
    _ bytes: [UInt8], maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength
) -> [WebSocketConnectionState.ReadAction] {
    var state = WebSocketConnectionState(maximumMessageLength: maximumMessageLength)
    return readActions([bytes], in: &state)
}

/// The code of a close frame the client is told to send.
func closeCode(of frame: WebSocketFrame) -> UInt16? {
    guard frame.opcode == .close, frame.payload.count >= 2 else { return nil }
    return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
}
