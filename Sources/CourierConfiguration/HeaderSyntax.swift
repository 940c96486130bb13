/// The header syntax a configured name or `Name: value` entry must have, checked when the
/// configuration is read so that a typo fails at startup rather than on the first request.
enum HeaderSyntax {
    /// RFC 9110 §5.6.2: a field name is a token of visible ASCII other than delimiters.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy(isTokenByte)
    }

    /// A `Name: value` entry, split at the first colon, both sides trimmed; `nil` when the name
    /// is not a token or the value holds CR, LF or NUL (RFC 9110 §5.5).
    static func field(_ entry: String) -> (name: String, value: String)? {
        guard let colon = entry.firstIndex(of: ":") else { return nil }
        let name = trimmed(entry[..<colon])
        let value = trimmed(entry[entry.index(after: colon)...])
        guard isToken(name), !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else { return nil }
        return (name, value)
    }

    /// Without the spaces and tabs RFC 9110 lets surround a field value.
    private static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
