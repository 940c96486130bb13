import Courier

/// The status line and header fields of one response, parsed from the raw bytes libcurl handed
/// to the header callback.
///
/// Parsing happens on the awaiting task, never on the curl thread, so a slow parse of a large
/// header block delays only its own request.
///
/// It runs once per response, so it is written to allocate little: the lines are walked in place
/// rather than collected into an array, the one dictionary is sized up front from a count of LF
/// bytes, and names are compared byte-wise rather than through `lowercased()` copies. What is
/// left is the dictionary's storage and the Strings longer than 15 UTF-8 bytes (shorter ones are
/// stored inline).
package struct CurlResponseHead: Equatable, Sendable {
    package var statusCode: Int
    /// e.g. `HTTP/1.1`, `HTTP/2`.
    package var httpVersion: String
    /// Every field; a name that repeats (compared case-insensitively) has its values joined
    /// with `", "` under its first spelling, as URLSession joins them.
    package var fields: [String: String]

    /// Parses the last response in `bytes` (interim 1xx responses are skipped by the callback,
    /// which restarts the block at each status line). Returns nil when no status line is there.
    package init?(bytes: [UInt8]) {
        var lines = HeadBlockLines(bytes)
        guard let statusLine = lines.next(), let status = Self.parseStatusLine(statusLine) else {
            return nil
        }
        statusCode = status.code
        httpVersion = status.version
        var builder = FieldsBuilder(capacity: Self.lineFeedCount(in: bytes))
        while let line = lines.next() {
            builder.add(line)
        }
        fields = builder.fields
    }

    /// An upper bound on the number of field lines: every line but an unterminated last one ends
    /// in LF, and one of them is the status line. Sizing the dictionary with it means it never
    /// grows, which would cost an allocation each time.
    private static func lineFeedCount(in bytes: [UInt8]) -> Int {
        var count = 0
        for byte in bytes where byte == ASCII.lineFeed {
            count += 1
        }
        return count
    }

    private static func parseStatusLine(_ line: ArraySlice<UInt8>) -> (version: String, code: Int)? {
        guard let firstSpace = line.firstIndex(of: ASCII.space) else { return nil }
        let version = String(decoding: line[..<firstSpace], as: UTF8.self)
        guard version.hasPrefix("HTTP/") else { return nil }
        var code = 0
        var digits = 0
        for byte in line[(firstSpace + 1)...] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { break }
            digits += 1
            // Stop at a fourth digit: a long run of digits must not overflow `code` and trap.
            guard digits <= 3 else { return nil }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
        }
        // libcurl fails a status below 100 (CURLE_UNSUPPORTED_PROTOCOL) and so must this, rather
        // than hand a caller status 0, which reads as "no response".
        guard digits == 3, code >= 100 else { return nil }
        return (version, code)
    }
}

extension CurlResponseHead {
    /// The version and status code of the block's status line, without parsing its fields:
    /// what the transport needs on every hop.
    package static func statusLine(in bytes: [UInt8]) -> (version: String, code: Int)? {
        var lines = HeadBlockLines(bytes)
        return lines.next().flatMap(parseStatusLine)
    }

    /// The value of the field `name` without building the dictionary, its lines matched,
    /// joined and folded exactly as ``fields`` groups them: what
    /// `CurlResponse.value(forHTTPHeaderField:)` answers and a redirect's `Location` needs.
    package static func value(of name: String, in bytes: [UInt8]) -> String? {
        var lines = HeadBlockLines(bytes)
        guard lines.next() != nil else { return nil }
        var value: String?
        // A folded line continues the field of the last `Name: value` line.
        var lastFieldMatches = false
        while let line = lines.next() {
            if let first = line.first, ASCII.isSpaceOrTab(first) {
                if lastFieldMatches { value?.append(" " + ASCII.trimmed(line)) }
                continue
            }
            guard let colon = line.firstIndex(of: ASCII.colon) else { continue }
            lastFieldMatches = ASCII.sameFieldName(name, line[..<colon])
            guard lastFieldMatches else { continue }
            let piece = ASCII.trimmed(line[(colon + 1)...])
            if value == nil {
                value = piece
            } else {
                value?.append(", " + piece)
            }
        }
        return value
    }
}

private enum ASCII {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// Whether an ASCII `key` and ASCII `name` differ at most in letter case.
    static func equalIgnoringCase(_ key: String, _ name: ArraySlice<UInt8>) -> Bool {
        // `utf8.count` of a native String is stored, so most keys are rejected without a scan.
        guard key.utf8.count == name.count else { return false }
        return zip(key.utf8, name).allSatisfy { lowercased($0) == lowercased($1) }
    }

    /// Whether the line's `name` bytes belong to the field `key` as ``FieldsBuilder`` groups
    /// names: two ASCII names compare byte-wise ignoring case; once either is not ASCII, their
    /// decoded, lowercased texts compare, as the builder's map of lowercased names does. A
    /// byte-wise comparison alone missed `état` under `État`, and every name with invalid UTF-8.
    static func sameFieldName(_ key: String, _ name: ArraySlice<UInt8>) -> Bool {
        if equalIgnoringCase(key, name) { return true }
        guard !key.utf8.allSatisfy({ $0 < 0x80 }) || !name.allSatisfy({ $0 < 0x80 }) else { return false }
        return String(decoding: name, as: UTF8.self).lowercased() == key.lowercased()
    }

    static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    /// `bytes` without leading or trailing SP and HTAB, decoded (invalid UTF-8 is repaired).
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        HeadBlockLines.trimmed(bytes)
    }
}

/// Collects `Name: value` lines into one dictionary, joining repeated names under their first
/// spelling and appending folded lines to the field before them.
private struct FieldsBuilder {
    /// Up to this many fields, a new name is compared byte-wise with every key so far: for the
    /// usual handful of fields that is cheaper than hashing a lowercased copy of each name, and
    /// allocates nothing. Past it, a map keeps a large block from costing quadratic time.
    private static let linearScanLimit = 32

    private(set) var fields: [String: String]
    /// The field that a folded line continues: the one the last `Name: value` line went to.
    private var lastKey: String?
    /// Lowercased name → first spelling. Built only when needed: past `linearScanLimit`, or once
    /// a name has a non-ASCII byte, where `lowercased()` is Unicode-aware and a byte-wise ASCII
    /// comparison would differ (KELVIN SIGN lowercases to ASCII `k`, for one). Until then every
    /// key is ASCII, which is what makes the byte-wise comparison exact.
    private var spellingByLowercasedName: [String: String]?

    init(capacity: Int) {
        fields = Dictionary(minimumCapacity: capacity)
    }

    mutating func add(_ line: ArraySlice<UInt8>) {
        if let first = line.first, ASCII.isSpaceOrTab(first) {
            // Obsolete line folding (RFC 9112 §5.2): the line continues the previous value.
            if let lastKey, let index = fields.index(forKey: lastKey) {
                append(ASCII.trimmed(line), after: " ", at: index)
            }
            return
        }
        guard let colon = line.firstIndex(of: ASCII.colon) else { return }
        let nameBytes = line[..<colon]
        let name = String(decoding: nameBytes, as: UTF8.self)
        let value = ASCII.trimmed(line[(colon + 1)...])
        if let index = indexOfField(named: name, bytes: nameBytes) {
            append(value, after: ", ", at: index)
            lastKey = fields.keys[index]
        } else {
            fields[name] = value
            lastKey = name
        }
    }

    /// Appends in place, rather than storing `previous + separator + piece`, so the value's
    /// storage is reused when it has room.
    private mutating func append(
        _ piece: String, after separator: String, at index: Dictionary<String, String>.Index
    ) {
        fields.values[index].append(separator)
        fields.values[index].append(piece)
    }

    /// The field whose name equals `name` ignoring case (there is at most one), or nil when the
    /// name is new.
    private mutating func indexOfField(
        named name: String, bytes: ArraySlice<UInt8>
    ) -> Dictionary<String, String>.Index? {
        if spellingByLowercasedName == nil, fields.count < Self.linearScanLimit,
           bytes.allSatisfy({ $0 < 0x80 }) {
            return fields.keys.firstIndex { ASCII.equalIgnoringCase($0, bytes) }
        }
        if spellingByLowercasedName == nil {
            // Every key so far is an ASCII first spelling and no two are equal ignoring case, so
            // no lowercased name repeats; keeping the first anyway means this can never trap.
            spellingByLowercasedName = Dictionary(
                fields.keys.map { ($0.lowercased(), $0) },
                uniquingKeysWith: { first, _ in first }
            )
        }
        let lowercased = name.lowercased()
        let spelling = spellingByLowercasedName?[lowercased] ?? name
        spellingByLowercasedName?[lowercased] = spelling
        return fields.index(forKey: spelling)
    }
}
