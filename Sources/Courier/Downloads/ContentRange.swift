/// A `Content-Range` field value in bytes (RFC 9110 §14.4): the range a 206 carries,
/// `bytes first-last/complete` (the complete length may be `*`), or what a 416 reports,
/// `bytes */complete`.
package struct ContentRange: Sendable, Equatable {
    /// The bytes the body holds, first and last inclusive; `nil` in a 416's `bytes */complete`.
    package var range: ClosedRange<Int64>?
    /// The length of the whole representation, when the server gave it.
    package var completeLength: Int64?

    package init(range: ClosedRange<Int64>?, completeLength: Int64?) {
        self.range = range
        self.completeLength = completeLength
    }

    /// Parses `value`; `nil` for anything not in the grammar, a last byte before the first, a
    /// range that does not fit in the complete length, or numbers too large for `Int64`.
    package init?(_ value: String) {
        let text = value.utf8.drop { $0 == 0x20 || $0 == 0x09 }
        guard text.count > 6, text.prefix(6).map(Self.lowercased).elementsEqual("bytes ".utf8) else { return nil }
        let rest = text.dropFirst(6)
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let rangePart = rest[..<slash]
        let lengthPart = Array(rest[rest.index(after: slash)...].reversed().drop { $0 == 0x20 || $0 == 0x09 }.reversed())
        if lengthPart == [UInt8(ascii: "*")] {
            completeLength = nil
        } else {
            guard let length = Self.number(lengthPart[...]) else { return nil }
            completeLength = length
        }
        if rangePart.elementsEqual("*".utf8) {
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        guard let dash = rangePart.firstIndex(of: UInt8(ascii: "-")),
            let first = Self.number(rangePart[..<dash]),
            let last = Self.number(rangePart[rangePart.index(after: dash)...]),
            first <= last, completeLength.map({ last < $0 }) ?? true
        else { return nil }
        range = first...last
    }

    /// A run of ASCII digits as a number, `nil` when empty, not digits or over `Int64.max`.
    private static func number<Bytes: Collection<UInt8>>(_ digits: Bytes) -> Int64? {
        guard !digits.isEmpty, digits.count <= 19, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(String(decoding: digits, as: UTF8.self))
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}
