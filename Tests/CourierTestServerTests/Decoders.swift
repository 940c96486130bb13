import CZlib
import CZstd

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a decoder made of a compressed body.
struct Decoded: Equatable {
    /// Bytes decoded, up to the limit the caller gave.
    var count = 0
    var isAllZeros = true
    /// The stream ended, with its checksum (if it has one) verified, and no input was left over.
    var isComplete = false

    fileprivate mutating func add(_ bytes: UnsafeRawBufferPointer) {
        count += bytes.count
        guard isAllZeros, !bytes.isEmpty else { return }
        // memcmp, not a Swift loop: unoptimised test builds check a byte a few nanoseconds
        // apart, and these tests look at hundreds of megabytes.
        isAllZeros = Self.zeros.withUnsafeBytes { zeros in
            guard let start = bytes.baseAddress, let zeros = zeros.baseAddress else { return false }
            return memcmp(start, zeros, bytes.count) == 0
        }
    }

    /// As large as any decoder's output buffer.
    private static let zeros = [UInt8](repeating: 0, count: 1 << 20)
}

/// Streaming decoders, independent of the server's own code, that stop once `limit` bytes are
/// out, so the first megabytes of a bomb can be checked without decoding gigabytes. Each
/// returns `nil` when the library reports the input corrupt.
enum Decoders {
    /// No larger than `Decoded.zeros`.
    private static let outputSize = 1 << 20

    /// zlib's inflate; `windowBits` 31 for gzip, 15 for zlib ("deflate").
    static func inflate(_ input: [UInt8], windowBits: Int32, limit: Int = .max) -> Decoded? {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var source = input
        var output = [UInt8](repeating: 0, count: outputSize)
        var decoded = Decoded()
        return source.withUnsafeMutableBufferPointer { inBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            while decoded.count < limit {
                let status = output.withUnsafeMutableBytes { outBuffer in
                    stream.next_out = outBuffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                    stream.avail_out = uInt(outBuffer.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    decoded.add(UnsafeRawBufferPointer(rebasing: outBuffer[..<(outBuffer.count - Int(stream.avail_out))]))
                    return status
                }
                switch status {
                case Z_STREAM_END:
                    decoded.isComplete = stream.avail_in == 0
                    return decoded
                case Z_OK:
                    continue
                case Z_BUF_ERROR:
                    return decoded  // the input ran out before the stream did
                default:
                    return nil
                }
            }
            return decoded
        }
    }

    static func zstd(_ input: [UInt8], limit: Int = .max) -> Decoded? {
        guard let stream = ZSTD_createDStream() else { return nil }
        defer { ZSTD_freeDStream(stream) }
        var output = [UInt8](repeating: 0, count: outputSize)
        var decoded = Decoded()
        return input.withUnsafeBytes { inBuffer in
            var source = ZSTD_inBuffer(src: inBuffer.baseAddress, size: inBuffer.count, pos: 0)
            while decoded.count < limit {
                let result = output.withUnsafeMutableBytes { outBuffer in
                    var sink = ZSTD_outBuffer(dst: outBuffer.baseAddress, size: outBuffer.count, pos: 0)
                    let result = ZSTD_decompressStream(stream, &sink, &source)
                    decoded.add(UnsafeRawBufferPointer(rebasing: outBuffer[..<sink.pos]))
                    return (code: result, filledOutput: sink.pos == sink.size)
                }
                if ZSTD_isError(result.code) != 0 { return nil }
                // 0: a frame is complete and flushed.
                if result.code == 0 {
                    decoded.isComplete = source.pos == source.size
                    return decoded
                }
                if source.pos == source.size && !result.filledOutput { return decoded }
            }
            return decoded
        }
    }

    /// libbrotlidec, loaded at run time: `CBrotli` exposes only the encoder the server needs,
    /// and libcurl's brotli support means the decoder is installed wherever the tests run.
    static func brotli(_ input: [UInt8], limit: Int = .max) -> Decoded? {
        typealias Create = @convention(c) (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutableRawPointer?) -> OpaquePointer?
        typealias Destroy = @convention(c) (OpaquePointer?) -> Void
        typealias DecompressStream = @convention(c) (
            OpaquePointer?, UnsafeMutablePointer<Int>, UnsafeMutablePointer<UnsafePointer<UInt8>?>,
            UnsafeMutablePointer<Int>, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int>?
        ) -> Int32
        guard let library = dlopen("libbrotlidec.so.1", RTLD_NOW) ?? dlopen("libbrotlidec.dylib", RTLD_NOW) else {
            return nil
        }
        defer { dlclose(library) }
        guard let createSymbol = dlsym(library, "BrotliDecoderCreateInstance"),
            let destroySymbol = dlsym(library, "BrotliDecoderDestroyInstance"),
            let decompressSymbol = dlsym(library, "BrotliDecoderDecompressStream")
        else { return nil }
        let create = unsafeBitCast(createSymbol, to: Create.self)
        let destroy = unsafeBitCast(destroySymbol, to: Destroy.self)
        let decompress = unsafeBitCast(decompressSymbol, to: DecompressStream.self)
        guard let state = create(nil, nil, nil) else { return nil }
        defer { destroy(state) }

        // BrotliDecoderResult.
        let (error, success, needsMoreInput) = (Int32(0), Int32(1), Int32(2))
        var output = [UInt8](repeating: 0, count: outputSize)
        var decoded = Decoded()
        return input.withUnsafeBufferPointer { inBuffer in
            var nextIn = inBuffer.baseAddress
            var availableIn = inBuffer.count
            while decoded.count < limit {
                let result = output.withUnsafeMutableBufferPointer { outBuffer in
                    var nextOut = outBuffer.baseAddress
                    var availableOut = outBuffer.count
                    let result = decompress(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    let filled = UnsafeMutableBufferPointer(rebasing: outBuffer[..<(outBuffer.count - availableOut)])
                    decoded.add(UnsafeRawBufferPointer(filled))
                    return result
                }
                switch result {
                case error: return nil
                case success:
                    decoded.isComplete = availableIn == 0
                    return decoded
                case needsMoreInput: return decoded
                default: continue  // needs more output
                }
            }
            return decoded
        }
    }
}
