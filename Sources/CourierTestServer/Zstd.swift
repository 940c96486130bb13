import CZstd

/// Whole-buffer zstd compression for the `/zstd` route (`Content-Encoding: zstd`).
enum Zstd {
    /// The compressed bytes (one frame, content size recorded), or `nil` on a zstd error.
    static func compress(_ input: [UInt8]) -> [UInt8]? {
        let bound = ZSTD_compressBound(input.count)
        guard ZSTD_isError(bound) == 0 else { return nil }
        var output = [UInt8](repeating: 0, count: bound)
        let written = input.withUnsafeBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer in
                ZSTD_compress(outBuffer.baseAddress, outBuffer.count, inBuffer.baseAddress, inBuffer.count, 3)
            }
        }
        guard ZSTD_isError(written) == 0 else { return nil }
        output.removeLast(output.count - written)
        return output
    }
}
