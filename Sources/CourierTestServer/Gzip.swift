import CZlib

/// zlib compression for the `/gzip`, `/deflate` and `/gzip-bomb` routes.
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
