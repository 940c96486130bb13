/// One WebSocket frame as bytes on the wire see it, for the scripted server: built here, bit by
/// bit, rather than by any codec under test, so that a script can write what no encoder would
/// (reserved bits, reserved opcodes, fragmented control frames, oversized pings), and parsed
/// here from what the client sent.
package struct WireFrame: Equatable, Sendable, CustomStringConvertible {
    package var fin: Bool
    /// RSV1–RSV3 as a 3-bit number, as Autobahn|Testsuite counts them: 4 is RSV1, 1 is RSV3.
    package var rsv: UInt8
    /// The 4-bit opcode, reserved ones included.
    package var opcode: UInt8
    package var payload: [UInt8]
    /// Whether the frame came masked; frames the server builds never are.
    package var masked: Bool

    package init(fin: Bool = true, rsv: UInt8 = 0, opcode: UInt8, payload: [UInt8] = [], masked: Bool = false) {
        self.fin = fin
        self.rsv = rsv
        self.opcode = opcode
        self.payload = payload
        self.masked = masked
    }

    package static let continuation: UInt8 = 0x0
    package static let text: UInt8 = 0x1
    package static let binary: UInt8 = 0x2
    package static let close: UInt8 = 0x8
    package static let ping: UInt8 = 0x9
    package static let pong: UInt8 = 0xA

    package static func text(_ text: String, fin: Bool = true) -> WireFrame {
        WireFrame(fin: fin, opcode: Self.text, payload: Array(text.utf8))
    }

    package static func text(bytes: [UInt8], fin: Bool = true) -> WireFrame {
        WireFrame(fin: fin, opcode: Self.text, payload: bytes)
    }

    package static func binary(_ bytes: [UInt8], fin: Bool = true) -> WireFrame {
        WireFrame(fin: fin, opcode: Self.binary, payload: bytes)
    }

    package static func continuation(_ bytes: [UInt8], fin: Bool) -> WireFrame {
        WireFrame(fin: fin, opcode: Self.continuation, payload: bytes)
    }

    package static func continuation(_ text: String, fin: Bool) -> WireFrame {
        continuation(Array(text.utf8), fin: fin)
    }

    package static func ping(_ bytes: [UInt8] = []) -> WireFrame {
        WireFrame(opcode: Self.ping, payload: bytes)
    }

    package static func pong(_ bytes: [UInt8] = []) -> WireFrame {
        WireFrame(opcode: Self.pong, payload: bytes)
    }

    /// A close frame with `code` and `reason` (raw bytes, so that a script can send one that
    /// is not UTF-8).
    package static func close(_ code: UInt16, reasonBytes: [UInt8]) -> WireFrame {
        WireFrame(opcode: Self.close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + reasonBytes)
    }

    package static func close(_ code: UInt16, _ reason: String = "") -> WireFrame {
        close(code, reasonBytes: Array(reason.utf8))
    }

    /// A close frame with this payload as it is: empty, one byte, or anything else.
    package static func close(payload: [UInt8]) -> WireFrame {
        WireFrame(opcode: Self.close, payload: payload)
    }

    /// The frame's bytes, unmasked, its length in the fewest bytes (RFC 6455 §5.2).
    package var bytes: [UInt8] {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (rsv & 0x7) << 4 | (opcode & 0xF)]
        let length = payload.count
        if length <= 125 {
            bytes.append(UInt8(length))
        } else if length <= 0xFFFF {
            bytes += [126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            bytes.append(127)
            for shift in stride(from: 56, through: 0, by: -8) {
                bytes.append(UInt8(truncatingIfNeeded: UInt64(length) >> UInt64(shift)))
            }
        }
        return bytes + payload
    }

    /// The close code a close frame carries; nil for another frame or one without a code.
    package var closeCode: UInt16? {
        guard opcode == Self.close, payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }

    /// The reason bytes of a close frame, as text; nil for another frame or one without a code.
    package var closeReason: String? {
        guard closeCode != nil else { return nil }
        return String(decoding: payload.dropFirst(2), as: UTF8.self)
    }

    package var isControl: Bool { opcode & 0x8 != 0 }

    package var description: String {
        let shown = payload.count > 16 ? "\(payload.count) bytes" : "\(payload)"
        return "frame(fin: \(fin), rsv: \(rsv), opcode: 0x\(String(opcode, radix: 16)), \(shown)\(masked ? ", masked" : ""))"
    }
}

extension Array where Element == WireFrame {
    /// The frames' bytes, one after another.
    package var bytes: [UInt8] { flatMap(\.bytes) }
}

/// A whole data message the client sent, its fragments joined.
package struct WireMessage: Equatable, Sendable, CustomStringConvertible {
    /// 1 for text, 2 for binary.
    package var opcode: UInt8
    package var payload: [UInt8]
    /// How many frames carried it.
    package var frameCount: Int

    package var description: String {
        "message(opcode: \(opcode), \(payload.count) bytes in \(frameCount) frames)"
    }
}

/// XORs `payload` with the 4-byte `key` repeated, eight bytes at a time: megabytes of a
/// client's frames cost little even under a sanitizer.
private func unmask(_ payload: inout [UInt8], key: [UInt8]) {
    let wide = (key + key).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
    payload.withUnsafeMutableBytes { bytes in
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            bytes.storeBytes(of: word ^ wide, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        while offset < bytes.count {
            bytes[offset] ^= key[offset & 3]
            offset += 1
        }
    }
}

/// Reads the client's frames from its bytes in whatever pieces they come, unmasking them. A
/// frame's length is taken as written, so a client that writes a non-minimal one is still read.
struct ClientFrameParser {
    private var buffer: [UInt8] = []
    private var start = 0

    /// Bytes received and not yet part of a whole frame.
    var pendingByteCount: Int { buffer.count - start }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func next() -> WireFrame? {
        let available = buffer.count - start
        guard available >= 2 else { return nil }
        let first = buffer[start]
        let second = buffer[start + 1]
        let masked = second & 0x80 != 0
        var headerLength = 2
        var length = Int(second & 0x7F)
        if length == 126 {
            headerLength = 4
            guard available >= headerLength else { return nil }
            length = Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        } else if length == 127 {
            headerLength = 10
            guard available >= headerLength else { return nil }
            length = buffer[start + 2..<start + 10].reduce(0) { $0 << 8 | Int($1) }
        }
        let keyStart = start + headerLength
        if masked { headerLength += 4 }
        guard available >= headerLength + length else { return nil }
        let payloadStart = start + headerLength
        var payload = Array(buffer[payloadStart..<payloadStart + length])
        if masked { unmask(&payload, key: Array(buffer[keyStart..<keyStart + 4])) }
        start = payloadStart + length
        return WireFrame(fin: first & 0x80 != 0, rsv: first >> 4 & 0x7, opcode: first & 0xF, payload: payload, masked: masked)
    }
}
