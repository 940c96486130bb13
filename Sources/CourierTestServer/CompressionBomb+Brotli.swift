import NIOCore

// A brotli bomb built by hand (RFC 7932). Brotli's encoder writes meta-blocks that lean on
// state the ones before them left (the last distances used), so a piece of its output cannot
// just be repeated; a meta-block whose one command copies 1 MiB from one byte back needs no such
// state, and is 13 bytes.
extension CompressionBomb {
    static func brotli(mebibytes: Int) -> Reply.Body {
        .repeated(prefix: brotliPrefix, unit: brotliUnit, times: max(0, mebibytes - 1), suffix: brotliSuffix)
    }

    /// The window-size bit, then the first MiB, which must start with a literal zero for the
    /// copy to repeat.
    private static let brotliPrefix: ByteBuffer = {
        var writer = BitWriter()
        writer.write(0, bits: 1)  // WBITS: a 64 KiB window, plenty for copies from one byte back
        writeMetaBlock(startingWithLiteral: true, to: &writer)
        return ByteBuffer(bytes: writer.bytes)
    }()

    private static let brotliUnit: ByteBuffer = {
        var writer = BitWriter()
        writeMetaBlock(startingWithLiteral: false, to: &writer)
        return ByteBuffer(bytes: writer.bytes)
    }()

    /// ISLAST and ISLASTEMPTY: the stream ends.
    private static let brotliSuffix = ByteBuffer(bytes: [0b11])

    /// One compressed meta-block of 1 MiB of zeros, then an empty metadata block that pads to a
    /// byte boundary, so that copies of the bytes line up. Every prefix code has a single
    /// symbol, which takes no bits to send; the meta-block's one command is all that is left.
    private static func writeMetaBlock(startingWithLiteral: Bool, to writer: inout BitWriter) {
        writer.write(0, bits: 1)  // ISLAST
        writer.write(1, bits: 2)  // MNIBBLES: 5 nibbles of MLEN - 1 follow
        writer.write(UInt64(mebibyte - 1), bits: 20)
        writer.write(0, bits: 1)  // ISUNCOMPRESSED
        writer.write(0, bits: 3)  // NBLTYPESL, NBLTYPESI, NBLTYPESD: one block type each
        writer.write(0, bits: 6)  // NPOSTFIX, NDIRECT
        writer.write(0, bits: 2)  // the literal context mode
        writer.write(0, bits: 2)  // NTREESL, NTREESD: one prefix code each
        // Simple prefix codes (HSKIP 1) of one symbol each: literal 0, then the command's
        // insert-and-copy symbol (insert 1 or 0 literals; copy length code 23, an explicit
        // distance), then distance code 16 (distance 1 + its one extra bit).
        let command: UInt64 = startingWithLiteral ? 399 : 391
        for (symbol, width) in [(UInt64(0), 8), (command, 10), (16, 6)] {
            writer.write(1, bits: 2)
            writer.write(0, bits: 2)
            writer.write(symbol, bits: width)
        }
        // Copy length code 23 starts at 2118, with 24 extra bits.
        let copyLength = startingWithLiteral ? mebibyte - 1 : mebibyte
        writer.write(UInt64(copyLength - 2118), bits: 24)
        writer.write(0, bits: 1)  // the distance's extra bit: distance 1
        // ISLAST 0, MNIBBLES 3 (metadata), reserved 0, MSKIPBYTES 0; then the padding.
        writer.write(0b000110, bits: 6)
        writer.alignToByte()
    }
}

/// Bits packed least significant first, as brotli (and deflate) streams are.
private struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var used = 8

    mutating func write(_ value: UInt64, bits: Int) {
        for index in 0..<bits {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8((value >> UInt64(index)) & 1) << used
            used += 1
        }
    }

    /// Starts the next write on a new byte; the unused high bits stay zero, as padding must.
    mutating func alignToByte() {
        used = 8
    }
}
