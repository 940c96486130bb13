import CZlib

/// zlib compression for the `/gzip`, `/deflate`, `/gzip-bomb` and `/bomb` routes.
///
/// Echo bodies are small JSON documents, so one `deflate(Z_FINISH)` into a `deflateBound`-sized
/// buffer is enough; the bomb streams zeros through one reused input buffer. No streaming state
/// outlives a call.
enum Gzip {
    /// The container around the deflate stream.
    enum Format {
        /// RFC 1952, for `Content-Encoding: gzip`.
        case gzip
        /// RFC 1950, for `Content-Encoding: deflate` (which despite its name means zlib).
        case zlib

        // zlib selects the gzip wrapper by adding 16 to the window size.
        fileprivate var windowBits: Int32 {
            switch self {
            case .gzip: 31
            case .zlib: 15
            }
        }
    }

    /// The compressed bytes, or `nil` if zlib reports an error.
    static func compress(_ input: [UInt8], format: Format) -> [UInt8]? {
        withDeflateStream(level: Z_DEFAULT_COMPRESSION, windowBits: format.windowBits, memoryLevel: 8) { stream in
            let (status, output) = deflateInOneCall(input, &stream, flush: Z_FINISH)
            return status == Z_STREAM_END ? output : nil
        }
    }

    /// `body`'s result with a deflate stream set up as asked, ended when `body` returns; `nil` if
    /// zlib cannot set it up.
    fileprivate static func withDeflateStream(
        level: Int32, windowBits: Int32, memoryLevel: Int32, _ body: (inout z_stream) -> [UInt8]?
    ) -> [UInt8]? {
        var stream = z_stream()
        let initStatus = deflateInit2_(
            &stream, level, Z_DEFLATED, windowBits, memoryLevel, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        guard initStatus == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        return body(&stream)
    }

    /// One `deflate` call over all of `input` into a buffer of `deflateBound` plus `slack` bytes,
    /// and the bytes it wrote; the caller judges zlib's status (and the stream's counts) by the
    /// `flush` it asked for.
    fileprivate static func deflateInOneCall(
        _ input: [UInt8], _ stream: inout z_stream, flush: Int32, slack: Int = 0
    ) -> (status: Int32, output: [UInt8]) {
        var source = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + slack)
        let status = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, flush)
            }
        }
        output.removeLast(Int(stream.avail_out))
        return (status, output)
    }
}

extension Gzip {
    /// A gzip stream that inflates to `count` zero bytes, compressed 1 MiB of input at a time so
    /// a bomb of a gigabyte never holds more than its ~1 MiB compressed form. `nil` on a zlib
    /// error.
    static func compressedZeros(count: Int) -> [UInt8]? {
        withDeflateStream(level: Z_BEST_COMPRESSION, windowBits: Format.gzip.windowBits, memoryLevel: 9) { stream in
            compressZeros(count: count, into: &stream)
        }
    }

    private static func compressZeros(count: Int, into stream: inout z_stream) -> [UInt8]? {
        var zeros = [UInt8](repeating: 0, count: 1 << 20)
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var output: [UInt8] = []
        var remaining = max(0, count)
        while true {
            let piece = min(remaining, zeros.count)
            remaining -= piece
            let flush = remaining == 0 ? Z_FINISH : Z_NO_FLUSH
            var status = Z_OK
            zeros.withUnsafeMutableBufferPointer { inBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(piece)
                // Drain until zlib has taken all the input (and, at the end, written the trailer).
                repeat {
                    scratch.withUnsafeMutableBufferPointer { outBuffer in
                        stream.next_out = outBuffer.baseAddress
                        stream.avail_out = uInt(outBuffer.count)
                        status = deflate(&stream, flush)
                        output.append(contentsOf: outBuffer[..<(outBuffer.count - Int(stream.avail_out))])
                    }
                } while stream.avail_out == 0 || (flush == Z_FINISH && status == Z_OK)
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else { return nil }
            if remaining == 0 { return status == Z_STREAM_END ? output : nil }
        }
    }
}

extension Gzip {
    /// Raw deflate (no header, no trailer) of `count` zero bytes ended by a full flush, or `nil`
    /// on a zlib error.
    ///
    /// A full flush byte-aligns the output and forgets all history, so copies of these bytes one
    /// after another are still one valid deflate stream; zlib compressing zeros in a loop, with
    /// a full flush after every `count` bytes, writes these same bytes for each of them.
    static func fullFlushedZeros(count: Int) -> [UInt8]? {
        withDeflateStream(level: Z_BEST_COMPRESSION, windowBits: -15, memoryLevel: 9) { stream in
            // Far more room than zeros compress to, so one call flushes everything.
            let (status, output) = deflateInOneCall(
                [UInt8](repeating: 0, count: max(0, count)), &stream, flush: Z_FULL_FLUSH, slack: 64
            )
            return status == Z_OK && stream.avail_in == 0 && stream.avail_out > 0 ? output : nil
        }
    }

    /// The CRC-32 (gzip's trailer) and Adler-32 (zlib's) of `times * length` zero bytes.
    ///
    /// zlib's combine functions join the checksums of two runs, so doubling gets there in
    /// log2(`times`) steps without ever touching the gigabytes themselves.
    static func checksumsOfZeros(length: Int, times: Int) -> (crc32: UInt32, adler32: UInt32) {
        let zeros = [UInt8](repeating: 0, count: max(0, length))
        var powerCRC = zeros.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) }
        var powerAdler = zeros.withUnsafeBufferPointer { CZlib.adler32(1, $0.baseAddress, uInt($0.count)) }
        var powerLength = off_t(zeros.count)
        var crc: uLong = 0
        var adler: uLong = 1
        var remaining = max(0, times)
        while remaining > 0 {
            if remaining & 1 == 1 {
                crc = crc32_combine(crc, powerCRC, powerLength)
                adler = adler32_combine(adler, powerAdler, powerLength)
            }
            remaining >>= 1
            guard remaining > 0 else { break }
            powerCRC = crc32_combine(powerCRC, powerCRC, powerLength)
            powerAdler = adler32_combine(powerAdler, powerAdler, powerLength)
            powerLength *= 2
        }
        return (UInt32(truncatingIfNeeded: crc), UInt32(truncatingIfNeeded: adler))
    }
}
