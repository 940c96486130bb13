/// Fuzzer bytes read front to back as the choices that build one case. Past the end every read
/// answers zero, so that any input, the empty one included, builds a case.
package struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    package var isAtEnd: Bool { position >= bytes.count }

    package mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    package mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// One of `choices`, which must not be empty.
    package mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int(byte()) % choices.count]
    }

    /// The next `count` bytes as an integer, least significant first.
    package mutating func integer(byteCount count: Int) -> UInt64 {
        var value: UInt64 = 0
        for shift in 0..<min(count, 8) {
            value |= UInt64(byte()) << (8 * shift)
        }
        return value
    }

    /// A length byte, then that many bytes (fewer at the end of the input).
    package mutating func chunk() -> [UInt8] {
        let count = Int(byte())
        let end = min(position + count, bytes.count)
        defer { position = max(position, end) }
        return position < end ? Array(bytes[position..<end]) : []
    }

    /// Everything not read yet.
    package mutating func rest() -> [UInt8] {
        defer { position = bytes.count }
        return position < bytes.count ? Array(bytes[position...]) : []
    }
}
