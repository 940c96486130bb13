/// Reading single facts out of a raw header block without parsing all of it: what the
/// transport needs per hop (the status, `Location` on a redirect) and what
/// ``CurlResponse/value(forHTTPHeaderField:)`` answers.
extension CurlResponseHead {
    /// The version and status code of the block's status line, or nil when it has none.
    static func statusLine(in bytes: [UInt8]) -> (version: String, code: Int)? {
        let end = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        var line = bytes[..<end]
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard let space = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let version = line[..<space]
        guard version.starts(with: "HTTP/".utf8) else { return nil }
        var code = 0
        var digits = 0
        for byte in line[(space + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits == 3 else { return nil }
        return (String(decoding: version, as: UTF8.self), code)
    }

    /// The value of `name` (ASCII case-insensitive), repeated fields joined with `", "`, folded
    /// continuation lines joined with a space; nil when the field is absent.
    static func value(of name: String, in bytes: [UInt8]) -> String? {
        var result: String?
        var inMatchingField = false
        var lineStart = bytes.startIndex
        var isStatusLine = true
        while lineStart < bytes.endIndex {
            let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd < bytes.endIndex ? lineEnd + 1 : lineEnd
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if isStatusLine { isStatusLine = false; continue }
            guard let first = line.first else { continue }
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                // Obsolete line folding (RFC 9112 §5.2): continues the previous field.
                if inMatchingField, let current = result {
                    result = current + " " + trimmed(line)
                }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                inMatchingField = false
                continue
            }
            inMatchingField = equalsIgnoringASCIICase(line[..<colon], name)
            guard inMatchingField else { continue }
            let value = trimmed(line[(colon + 1)...])
            result = result.map { $0 + ", " + value } ?? value
        }
        return result
    }

    private static func equalsIgnoringASCIICase(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
        var index = bytes.startIndex
        for expected in name.utf8 {
            guard index < bytes.endIndex, lowercasedASCII(bytes[index]) == lowercasedASCII(expected) else {
                return false
            }
            index += 1
        }
        return index == bytes.endIndex
    }

    private static func lowercasedASCII(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
