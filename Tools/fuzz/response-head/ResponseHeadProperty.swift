import CourierCurl

/// Arbitrary bytes as a header block: the two cheap readers the transport uses on every hop
/// (`statusLine(in:)`, `value(of:in:)`) must agree with the full parse, whatever the bytes.
/// Traps (a slice out of range, an overflowing status code) end the process, which fails too.
@Sendable func responseHeadProperty(_ bytes: [UInt8]) -> String? {
    let head = CurlResponseHead(bytes: bytes)
    let statusLine = CurlResponseHead.statusLine(in: bytes)
    guard let head else {
        if let statusLine {
            return "no head parsed, but statusLine(in:) found \(statusLine.version) \(statusLine.code)"
        }
        return nil
    }
    guard let statusLine else {
        return "a head with status \(head.statusCode) parsed, but statusLine(in:) found none"
    }
    if statusLine.version != head.httpVersion || statusLine.code != head.statusCode {
        return "statusLine(in:) says \(statusLine.version) \(statusLine.code), the head \(head.httpVersion) \(head.statusCode)"
    }
    if !(100...999).contains(head.statusCode) {
        return "status code \(head.statusCode) is not three digits"
    }
    for (name, value) in head.fields {
        // Lines split at LF and names end at the first colon, so neither can hold them.
        if name.utf8.contains(UInt8(ascii: ":")) || name.utf8.contains(0x0A) || value.utf8.contains(0x0A) {
            return "field \(name.debugDescription): \(value.debugDescription) holds a line break or a colon in its name"
        }
        let lazy = CurlResponseHead.value(of: name, in: bytes)
        if lazy != value {
            return "field \(name.debugDescription): fields says \(value.debugDescription), value(of:in:) says \(lazy.debugDescription)"
        }
        // Every spelling the caller may use for a name: the lookup ignores ASCII case.
        let upper = String(name.map { $0.isASCII ? Character($0.uppercased()) : $0 })
        let upperLazy = CurlResponseHead.value(of: upper, in: bytes)
        if upperLazy != value {
            return "field \(name.debugDescription) asked as \(upper.debugDescription): value(of:in:) says \(upperLazy.debugDescription), fields \(value.debugDescription)"
        }
    }
    return nil
}
