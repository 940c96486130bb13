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
        var stream = z_stream()
        let initStatus = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, format.windowBits, 8, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        guard initStatus == Z_OK else { return nil }
        defer { deflateEnd(&stream) }

        var source = input
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let status = source.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }
}

extension Gzip {
    /// A gzip stream that inflates to `count` zero bytes, compressed 1 MiB of input at a time so
    /// a bomb of a gigabyte never holds more than its ~1 MiB compressed form. `nil` on a zlib
    /// error.
    static func compressedZeros(count: Int) -> [UInt8]? {
        var stream = z_stream()
        let initStatus = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, Format.gzip.windowBits, 9, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        guard initStatus == Z_OK else { return nil }
        defer { deflateEnd(&stream) }

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
        var stream = z_stream()
        let initStatus = deflateInit2_(
            &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY,
            zlibVersion(), Int32(MemoryLayout<z_stream>.size)
        )
        guard initStatus == Z_OK else { return nil }
        defer { deflateEnd(&stream) }

        var zeros = [UInt8](repeating: 0, count: max(0, count))
        // Far more than zeros compress to, so one call flushes everything.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(zeros.count))) + 64)
        let status = zeros.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                stream.next_in = inBuffer.baseAddress
                stream.avail_in = uInt(inBuffer.count)
                stream.next_out = outBuffer.baseAddress
                stream.avail_out = uInt(outBuffer.count)
                return deflate(&stream, Z_FULL_FLUSH)
            }
        }
        guard status == Z_OK, stream.avail_in == 0, stream.avail_out > 0 else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
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
