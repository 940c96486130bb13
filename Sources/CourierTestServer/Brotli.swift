import CBrotli

/// Whole-buffer brotli compression for the `/brotli` route (`Content-Encoding: br`).
enum Brotli {
    /// The compressed bytes, or `nil` if the encoder reports an error.
    static func compress(_ input: [UInt8]) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(input.count)
        // 0 means "too large to bound", never the case for the small JSON bodies sent here.
        guard size > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: size)
        let status = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                BrotliEncoderCompress(
                    BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_GENERIC,
                    inBuffer.count, inBuffer.baseAddress, &size, outBuffer.baseAddress
                )
            }
        }
        guard status == BROTLI_TRUE else { return nil }
        output.removeLast(output.count - size)
        return output
    }
}
