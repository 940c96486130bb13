import Testing
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

/// The first frame of a compressed message, RSV1 set, as a server writes it.
func compressedServerFrame(fin: Bool = true, _ opcode: WebSocketOpcode, _ payload: [UInt8]) -> [UInt8] {
    serverFrame(fin: fin, reservedBits: WebSocketFrame.compressionBit, opcode: opcode.rawValue, payload: payload)
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
func decodeFrames(
    _ pieces: [[UInt8]], maximumMessageLength: Int = 1 << 24, acceptsCompressedFrames: Bool = false
) -> Result<[WebSocketFrame], WebSocketError> {
    var decoder = WebSocketFrameDecoder(acceptsCompressedFrames: acceptsCompressedFrames)
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
    _ bytes: [UInt8], maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength,
    deflate: WebSocketDeflateParameters? = nil
) -> [WebSocketConnectionState.ReadAction] {
    var state = WebSocketConnectionState(maximumMessageLength: maximumMessageLength, deflate: deflate)
    return readActions([bytes], in: &state)
}

/// The code of a close frame the client is told to send.
func closeCode(of frame: WebSocketFrame) -> UInt16? {
    guard frame.opcode == .close, frame.payload.count >= 2 else { return nil }
    return UInt16(frame.payload[0]) << 8 | UInt16(frame.payload[1])
}

/// "Hello" compressed, RFC 7692 §7.2.3.1.
let compressedHello: [UInt8] = [0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]
/// "Hello" again, referring back into the message before (§7.2.3.2).
let compressedHelloAgain: [UInt8] = [0xF2, 0x00, 0x11, 0x00, 0x00]

/// `byteCount` bytes of text from a small vocabulary: compressible, and alike from one message
/// to the next.
func sentences(byteCount: Int, using generator: inout SeededGenerator) -> [UInt8] {
    let words = ["deflate", "window", "message", "frame", "server", "client", "κόσμε", "bits", "takeover", "context"]
    var text: [UInt8] = []
    while text.count < byteCount {
        text += Array((words.randomElement(using: &generator) ?? "").utf8) + [0x20]
    }
    return Array(text.prefix(byteCount))
}

/// `count` zero bytes as one compressed message, compressed a MiB at a time so that the test
/// never holds them all.
func compressedZeros(count: Int) throws -> [UInt8] {
    let stream = try #require(ZlibStream.deflater(windowBits: 15))
    let zeros = [UInt8](repeating: 0, count: 1 << 20)
    var output: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 1 << 16)
    var remaining = count
    while true {
        let piece = min(remaining, zeros.count)
        remaining -= piece
        var offset = 0
        while true {
            let result = zeros.withUnsafeBytes { input in
                scratch.withUnsafeMutableBytes { buffer in
                    stream.deflate(
                        UnsafeRawBufferPointer(rebasing: input[offset..<piece]), into: buffer, flush: remaining == 0 ? .sync : .none)
                }
            }
            offset += result.consumed
            output += scratch[..<result.produced]
            if offset == piece, result.produced < scratch.count { break }
        }
        if remaining == 0 { break }
    }
    #expect(output.suffix(4).elementsEqual(WebSocketInflater.trailer))
    return Array(output.dropLast(4))
}
