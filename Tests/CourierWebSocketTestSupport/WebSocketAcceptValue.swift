import Foundation

/// The `Sec-WebSocket-Accept` value for a client's key (RFC 6455 §4.2.2): base64 of the SHA-1
/// of the key and the protocol's GUID. Computed here with a SHA-1 of its own, so that the
/// scripted server checks the client's handshake against a second implementation, not the
/// client's.
package func webSocketAcceptValue(forKey key: String) -> String {
    let digest = sha1(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8))
    return Data(digest).base64EncodedString()
}

/// SHA-1 (FIPS 180-4), for the handshake only; no secret depends on it.
func sha1(_ message: [UInt8]) -> [UInt8] {
    var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    var padded = message
    padded.append(0x80)
    while padded.count % 64 != 56 { padded.append(0) }
    let bitLength = UInt64(message.count) * 8
    for shift in stride(from: 56, through: 0, by: -8) { padded.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }

    var words = [UInt32](repeating: 0, count: 80)
    for block in stride(from: 0, to: padded.count, by: 64) {
        for index in 0..<16 {
            let offset = block + index * 4
            words[index] = UInt32(padded[offset]) << 24 | UInt32(padded[offset + 1]) << 16
                | UInt32(padded[offset + 2]) << 8 | UInt32(padded[offset + 3])
        }
        for index in 16..<80 {
            words[index] = rotateLeft(words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
        }
        var (a, b, c, d, e) = (state[0], state[1], state[2], state[3], state[4])
        for index in 0..<80 {
            let (f, k): (UInt32, UInt32) =
                switch index {
                case 0..<20: ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (b ^ c ^ d, 0xCA62_C1D6)
                }
            let next = rotateLeft(a, 5) &+ f &+ e &+ k &+ words[index]
            (e, d, c, b, a) = (d, c, rotateLeft(b, 30), a, next)
        }
        state[0] &+= a
        state[1] &+= b
        state[2] &+= c
        state[3] &+= d
        state[4] &+= e
    }
    return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
}

private func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    value << count | value >> (32 - count)
}
