/// The status line and header fields of one response, parsed from the raw bytes libcurl handed
/// to the header callback.
///
/// Parsing happens on the awaiting task, never on the curl thread, so a slow parse of a large
/// header block delays only its own request.
struct CurlResponseHead: Equatable, Sendable {
    var statusCode: Int
    /// e.g. `HTTP/1.1`, `HTTP/2`.
    var httpVersion: String
    /// Every field; a name that repeats (compared case-insensitively) has its values joined
    /// with `", "` under its first spelling, as URLSession joins them.
    var fields: [String: String]

    /// Parses the last response in `bytes` (interim 1xx responses are skipped by the callback,
    /// which restarts the block at each status line). Returns nil when no status line is there.
    init?(bytes: [UInt8]) {
        var lines = Self.lines(in: bytes)
        guard let statusLine = lines.first, let status = Self.parseStatusLine(statusLine) else {
            return nil
        }
        lines.removeFirst()
        statusCode = status.code
        httpVersion = status.version
        fields = Self.joinedFields(lines)
    }

    /// Splits on LF, dropping a trailing CR and the empty line that ends the block; a line that
    /// starts with SP or HTAB (obsolete folding) is joined to the previous one.
    private static func lines(in bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            var end = index
            if end > start, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            if end > start { result.append(bytes[start..<end]) }
            start = index + 1
        }
        if start < bytes.endIndex { result.append(bytes[start...]) }
        return result
    }

    private static func parseStatusLine(_ line: ArraySlice<UInt8>) -> (version: String, code: Int)? {
        guard let firstSpace = line.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        let version = String(decoding: line[..<firstSpace], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { return nil }
        var code = 0
        var digits = 0
        for byte in line[(firstSpace + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits == 3 else { return nil }
        return (version, code)
    }

    private static func joinedFields(_ lines: [ArraySlice<UInt8>]) -> [String: String] {
        var fields: [String: String] = [:]
        var spellingByLowercasedName: [String: String] = [:]
        var lastName: String?
        for line in lines {
            if let first = line.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                // Obsolete line folding (RFC 9112 §5.2): the line continues the previous value.
                if let lastName, let previous = fields[lastName] {
                    fields[lastName] = previous + " " + trimmed(line)
                }
                continue
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { continue }
            let rawName = String(decoding: line[..<colon], as: UTF8.self)
            let value = trimmed(line[(colon + 1)...])
            let key = rawName.lowercased()
            let name = spellingByLowercasedName[key] ?? rawName
            spellingByLowercasedName[key] = name
            if let existing = fields[name] {
                fields[name] = existing + ", " + value
            } else {
                fields[name] = value
            }
            lastName = name
        }
        return fields
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }),
              let last = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
