import CZlib

/// Whole-buffer zlib compression for the `/gzip` and `/deflate` routes.
///
/// Bodies here are small JSON documents, so one `deflate(Z_FINISH)` into a `deflateBound`-sized
/// buffer is enough; no streaming state outlives a call.
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
