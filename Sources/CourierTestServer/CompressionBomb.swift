import NIOCore

/// Bodies that decode to any number of MiB of zeros, in each content coding that HTTP clients
/// decode, for `/bomb/{encoding}/{mib}`.
///
/// Each is one valid stream built as a prefix, one small unit repeated once per MiB, and a
/// suffix (``Reply/Body/repeated(prefix:unit:times:suffix:)``): the unit is computed once per
/// process, and the body is produced as the socket drains, so a 10 GiB bomb costs the server
/// no more memory or time than a 1 MiB one. Every unit decodes without reference to what came
/// before it, which is what makes the copies a valid stream:
/// - gzip, deflate: zlib's raw deflate of 1 MiB of zeros ended by a full flush (~1 KiB), in a
///   gzip or zlib wrapper whose trailer carries the checksum of the whole.
/// - br: a hand-built meta-block whose one command copies 1 MiB at distance 1 (13 bytes).
/// - zstd: eight RLE blocks of 128 KiB of zeros (32 bytes).
///
/// Not concatenated gzip members or zstd frames: a client could stop decoding at the end of the
/// first, and the bomb would not go off.
enum CompressionBomb {
    enum Encoding: String, Sendable, CaseIterable {
        case gzip
        case deflate
        case br
        case zstd
    }

    /// 2 TiB: far past any response limit, and ~64 MiB of zstd on the wire (2 GiB of gzip,
    /// which no test asks for: 64 GiB of gzip is ~64 MiB already). A bomb whose wire form
    /// outgrows every socket buffer between the server and the decoder is sent to its end
    /// only as fast as the client decodes it.
    static let maximumMebibytes = 2 << 20

    static let mebibyte = 1 << 20

    /// A body that decodes to `mebibytes` MiB of zeros, or `nil` if zlib failed.
    static func body(_ encoding: Encoding, mebibytes: Int) -> Reply.Body? {
        switch encoding {
        case .gzip: gzip(mebibytes: mebibytes)
        case .deflate: deflate(mebibytes: mebibytes)
        case .br: brotli(mebibytes: mebibytes)
        case .zstd: zstd(mebibytes: mebibytes)
        }
    }

    // MARK: gzip and deflate

    private static let deflateUnit: ByteBuffer? = Gzip.fullFlushedZeros(count: mebibyte).map { ByteBuffer(bytes: $0) }

    /// A final fixed-Huffman block holding only its end-of-block code: the end of the stream.
    private static let finalDeflateBlock: [UInt8] = [0x03, 0x00]

    private static func gzip(mebibytes: Int) -> Reply.Body? {
        guard let unit = deflateUnit else { return nil }
        // RFC 1952: magic, deflate, no flags, no mtime, "maximum compression", Unix.
        let header: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03]
        let crc = Gzip.checksumsOfZeros(length: mebibyte, times: mebibytes).crc32
        let size = UInt32(truncatingIfNeeded: mebibytes * mebibyte)
        var suffix = ByteBuffer(bytes: finalDeflateBlock)
        suffix.writeInteger(crc, endianness: .little)
        suffix.writeInteger(size, endianness: .little)
        return .repeated(prefix: ByteBuffer(bytes: header), unit: unit, times: mebibytes, suffix: suffix)
    }

    private static func deflate(mebibytes: Int) -> Reply.Body? {
        guard let unit = deflateUnit else { return nil }
        // RFC 1950: deflate with a 32 KiB window, "maximum compression", header check bits.
        let header: [UInt8] = [0x78, 0xDA]
        var suffix = ByteBuffer(bytes: finalDeflateBlock)
        suffix.writeInteger(Gzip.checksumsOfZeros(length: mebibyte, times: mebibytes).adler32, endianness: .big)
        return .repeated(prefix: ByteBuffer(bytes: header), unit: unit, times: mebibytes, suffix: suffix)
    }

    // MARK: zstd

    /// RFC 8878: magic number; a descriptor with no content size, no checksum and no
    /// dictionary; a 128 KiB window, the least that allows 128 KiB blocks.
    private static let zstdFrameHeader: [UInt8] = [0x28, 0xB5, 0x2F, 0xFD, 0x00, 0x38]

    private static let zstdUnit: ByteBuffer = {
        let blockSize = 128 * 1024
        var unit = ByteBuffer()
        for _ in 0..<(mebibyte / blockSize) {
            writeZstdBlockHeader(size: blockSize, type: 1, isLast: false, to: &unit)
            unit.writeInteger(UInt8(0))  // an RLE block's one byte, repeated `size` times
        }
        return unit
    }()

    private static func zstd(mebibytes: Int) -> Reply.Body {
        // The frame ends with an empty last block, as zstd's own streaming encoder ends one.
        var suffix = ByteBuffer()
        writeZstdBlockHeader(size: 0, type: 0, isLast: true, to: &suffix)
        return .repeated(prefix: ByteBuffer(bytes: zstdFrameHeader), unit: zstdUnit, times: mebibytes, suffix: suffix)
    }

    /// A 3-byte little-endian block header: last-block flag, block type (0 raw, 1 RLE), size.
    private static func writeZstdBlockHeader(size: Int, type: Int, isLast: Bool, to buffer: inout ByteBuffer) {
        let header = size << 3 | type << 1 | (isLast ? 1 : 0)
        for shift in [0, 8, 16] {
            buffer.writeInteger(UInt8(truncatingIfNeeded: header >> shift))
        }
    }
}
