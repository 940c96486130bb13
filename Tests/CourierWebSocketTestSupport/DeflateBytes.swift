/// Payloads of permessage-deflate messages (RFC 7692 §7.2.1) written bit by bit, without zlib,
/// for the scripted server: DEFLATE (RFC 1951) ending as a sync flush does, with the final
/// `00 00 FF FF` left off, as a server sends them.
package enum DeflateBytes {
    /// `bytes` in stored blocks, which DEFLATE copies as they are (at most 65535 bytes a block).
    package static func stored(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(bytes.count, start + 0xFFFF)
            let length = UInt16(end - start)
            // BFINAL 0, BTYPE 00, then the rest of the byte unused; LEN and its complement.
            output += [0x00, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            output += bytes[start..<end]
            start = end
        } while start < bytes.count
        // The empty stored block a sync flush ends with: its first byte, less 00 00 FF FF.
        return output + [0x00]
    }

    /// A bomb: one zero byte, then `references` copies of the 258 bytes before (the longest
    /// match DEFLATE has), each written in two bits with a Huffman code of its own, so that every
    /// four of them take one byte: it inflates about 1032 times over, to `1 + 258 × references`
    /// zero bytes.
    package static func zeroBomb(references: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(0, bits: 1)  // BFINAL: more blocks follow
        writer.write(2, bits: 2)  // BTYPE: dynamic Huffman codes
        writer.write(286 - 257, bits: 5)  // HLIT: literal/length codes up to 285
        writer.write(1 - 1, bits: 5)  // HDIST: one distance code
        // The code-length code: 18 (a run of zeros) in one bit "0", lengths 1 and 2 in "10" and
        // "11"; its lengths are sent in RFC 1951's order, up to the last one used (for 1).
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let codeLengthLengths = [18: 1, 1: 2, 2: 2]
        writer.write(18 - 4, bits: 4)  // HCLEN
        for symbol in order.prefix(18) { writer.write(codeLengthLengths[symbol] ?? 0, bits: 3) }
        func length(_ symbol: Int) {
            switch symbol {
            case 18: writer.writeCode(0b0, length: 1)
            case 1: writer.writeCode(0b10, length: 2)
            default: writer.writeCode(0b11, length: 2)
            }
        }
        // Literal/length code lengths: 0 (the literal zero) and 256 (end of block) get 2 bits,
        // 285 (length 258) gets 1; the rest none. Canonical codes: 285 "0", 0 "10", 256 "11".
        length(2)
        length(18)
        writer.write(138 - 11, bits: 7)  // literals 1–138
        length(18)
        writer.write(117 - 11, bits: 7)  // literals 139–255
        length(2)
        length(18)
        writer.write(28 - 11, bits: 7)  // lengths 257–284
        length(1)
        // The one distance code, 0 (distance 1), in one bit: "0".
        length(1)
        // The data: a zero, then each reference as length 285 "0" and distance 0 "0".
        writer.writeCode(0b10, length: 2)
        writer.writeZeroBits(2 * references)
        writer.writeCode(0b11, length: 2)
        // The empty stored block a sync flush ends with, less its 00 00 FF FF.
        writer.write(0, bits: 3)
        return writer.bytes
    }
}

/// Writes DEFLATE's bits: header fields and extra bits least significant first, Huffman codes
/// most significant first (RFC 1951 §3.1.1).
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var bitCount = 0

    mutating func write(_ value: Int, bits: Int) {
        for index in 0..<bits {
            if bitCount % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8((value >> index) & 1) << UInt8(bitCount % 8)
            bitCount += 1
        }
    }

    mutating func writeCode(_ code: Int, length: Int) {
        for index in stride(from: length - 1, through: 0, by: -1) { write((code >> index) & 1, bits: 1) }
    }

    /// `count` zero bits, a byte at a time rather than a bit.
    mutating func writeZeroBits(_ count: Int) {
        bitCount += count
        bytes += repeatElement(0, count: (bitCount + 7) / 8 - bytes.count)
    }
}
