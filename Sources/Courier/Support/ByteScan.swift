/// Scans of header bytes eight at a time, for the checks every request and every response
/// make: a byte-by-byte loop over a head block costs several instructions a byte, and nearly
/// every byte is printable.
///
/// Each test on a word is exact about whether some byte in it matches (the borrows it makes
/// can only disturb bytes above the first match), so a word that matches is looked at byte by
/// byte and one that does not is skipped whole.
enum ByteScan {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is less than `limit` (at most 128).
    @inline(__always)
    static func holdsByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    /// Whether some byte of `word` is `byte`.
    @inline(__always)
    static func holdsByte(_ byte: UInt8, in word: UInt64) -> Bool {
        holdsByte(below: 1, in: word ^ (ones &* UInt64(byte)))
    }

    /// The index of the first byte of `bytes`, from `start`, that is at most CR (0x0D): a line's
    /// end, or a control character inside it; `bytes.count` when there is none.
    static func indexOfLineBreakOrControl(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if holdsByte(below: 0x0E, in: word) { break }
                index += 8
            }
        }
        while index < bytes.count, bytes[index] > 0x0D { index += 1 }
        return index
    }

    /// True when no byte of `bytes` is below a space or is DEL; false says only that one of
    /// them may be, and the caller looks byte by byte.
    static func holdsNoControlByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if let base = bytes.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                if holdsByte(below: 0x20, in: word) || holdsByte(0x7F, in: word) { return false }
                index += 8
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return false }
            index += 1
        }
        return true
    }
}
