import Foundation
import NIOCore

/// Reproducible pseudo-random bytes for the `/bytes`, `/stream-bytes` and `/truncate` routes.
///
/// Byte `i` depends only on `seed` and `i` (SplitMix64 of the 8-byte word holding it), so a
/// body can be produced chunk by chunk at any offset and still equal the one-shot result a
/// test compares against.
enum DeterministicBytes {
    static func data(count: Int, offset: Int = 0, seed: UInt64) -> Data {
        guard count > 0, offset >= 0 else { return Data() }
        var data = Data(count: count)
        data.withUnsafeMutableBytes { fill($0, offset: offset, seed: seed) }
        return data
    }

    static func buffer(count: Int, offset: Int, seed: UInt64, allocator: ByteBufferAllocator) -> ByteBuffer {
        var buffer = allocator.buffer(capacity: max(count, 0))
        guard count > 0, offset >= 0 else { return buffer }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
            fill(UnsafeMutableRawBufferPointer(rebasing: raw[..<count]), offset: offset, seed: seed)
            return count
        }
        return buffer
    }

    private static func fill(_ bytes: UnsafeMutableRawBufferPointer, offset: Int, seed: UInt64) {
        var index = 0
        // Whole aligned words are stored eight bytes at a time; only the ragged ends go bytewise.
        while index < bytes.count {
            let position = offset + index
            let word = word(at: position >> 3, seed: seed)
            if position & 7 == 0, bytes.count - index >= 8 {
                bytes.storeBytes(of: word.littleEndian, toByteOffset: index, as: UInt64.self)
                index += 8
            } else {
                bytes[index] = UInt8(truncatingIfNeeded: word >> (UInt64(position & 7) * 8))
                index += 1
            }
        }
    }

    private static func word(at wordIndex: Int, seed: UInt64) -> UInt64 {
        splitMix64(seed &+ (UInt64(wordIndex) &+ 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    private static func splitMix64(_ state: UInt64) -> UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
