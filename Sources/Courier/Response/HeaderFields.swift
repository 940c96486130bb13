#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One header field as it arrived: its name as spelled and its value, trimmed.
public struct HeaderField: Sendable, Hashable {
    /// The name as the server spelled it.
    public var name: String
    /// The value, without the whitespace around it.
    public var value: String

    /// A field from its name and value.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A response's header fields in the order they arrived, each kept apart (two `Set-Cookie`
/// fields stay two), looked up by name without regard to case.
///
/// An engine that has the head as bytes hands them over as they are, and a field is read out of
/// them only when asked for: a small exchange whose caller reads one header, or none, builds no
/// String for the others. Reading a value scans the block, which for the handful of fields of a
/// usual response costs less than building a dictionary once.
public struct HeaderFields: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    private enum Storage: Sendable {
        /// A head block as received, status line first; lines are CRLF or LF terminated.
        case block([UInt8])
        case fields([HeaderField])
        /// The fields of a Foundation response, read from it when asked for.
        case foundation(FoundationResponse)
    }

    private let storage: Storage

    /// Fields in the given order, as an engine that has them apart hands them over.
    public init(_ fields: [HeaderField] = []) {
        storage = .fields(fields)
    }

    /// Fields from name–value pairs, in the given order.
    public init(dictionaryLiteral elements: (String, String)...) {
        storage = .fields(elements.map { HeaderField(name: $0.0, value: $0.1) })
    }

    /// The fields of a head block as received: the status line, then `Name: value` lines
    /// (obsolete folded lines continue the field before them); parsed only when read.
    package init(headBlock bytes: [UInt8]) {
        storage = .block(bytes)
    }

    /// Whether repeated fields arrive joined into one value, as FoundationNetworking delivers
    /// them, so that a field whose values may hold commas (`Set-Cookie`) must be split again.
    package var joinsRepeatedFields: Bool {
        if case .foundation = storage { true } else { false }
    }

    /// The header block as received, status line included, when the fields were built from one.
    package var headBlock: [UInt8]? {
        if case .block(let bytes) = storage { bytes } else { nil }
    }

    /// The fields of `response`, read from it only when asked for.
    init(_ response: FoundationResponse) {
        storage = .foundation(response)
    }

    /// The value of the field `name`, compared without regard to case; repeated fields joined
    /// with `", "` in the order they arrived, as `HTTPURLResponse.value(forHTTPHeaderField:)`
    /// joins them.
    public subscript(name: String) -> String? {
        if case .foundation(let response) = storage { return response.http.value(forHTTPHeaderField: name) }
        var joined: String?
        forEachValue(named: name) { value in
            joined = joined.map { $0 + ", " + value } ?? value
        }
        return joined
    }

    /// Every value of the field `name`, in the order they arrived.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        forEachValue(named: name) { values.append($0) }
        return values
    }

    /// The fields as `HTTPURLResponse` holds them: one entry per name, under its first
    /// spelling, repeated values joined with `", "`.
    package var joined: [String: String] {
        if case .foundation(let response) = storage {
            return response.http.allHeaderFields as? [String: String] ?? [:]
        }
        var joined: [String: String] = [:]
        var spellings: [String: String] = [:]
        forEachField { field in
            let key = field.name.lowercased()
            if let spelling = spellings[key] {
                joined[spelling, default: ""] += ", " + field.value
            } else {
                spellings[key] = field.name
                joined[field.name] = field.value
            }
        }
        return joined
    }

    /// Why these fields are not valid HTTP (a CR, LF or NUL in a value, `Content-Length`s that
    /// disagree, RFC 9110 §5.5 and RFC 9112 §6.3), or nil. A head block is first swept for the
    /// few bytes that could make a problem; only a block that has one is read field by field,
    /// building no String unless there is a problem to describe.
    var problem: String? {
        guard case .block(let bytes) = storage else { return problemInFields() }
        guard bytes.withUnsafeBufferPointer(HeadBlockSweep.mayHoldProblem) else { return nil }
        return problemInBlock(bytes)
    }

    /// `problem` of a head block, read field by field.
    func problemInBlock(_ bytes: [UInt8]) -> String? {
        var lines = HeadBlockLines(bytes)
        _ = lines.next()
        var name: ArraySlice<UInt8> = []
        var firstLength: ArraySlice<UInt8>?
        while let line = lines.next() {
            let value: ArraySlice<UInt8>
            if let first = line.first, first == HeadBlockLines.space || first == HeadBlockLines.tab {
                value = line
            } else {
                guard let colon = line.firstIndex(of: HeadBlockLines.colon) else { continue }
                name = line[..<colon]
                value = line[(colon + 1)...]
            }
            // Lines end at LF, so only a CR or a NUL can be left inside a value.
            if value.contains(0x0D) { return "the value of \(String(decoding: name, as: UTF8.self)) holds a bare CR" }
            if value.contains(0x00) { return "the value of \(String(decoding: name, as: UTF8.self)) holds a NUL byte" }
            guard ResponseFieldCheck.isContentLength(name) else { continue }
            // Piece by piece, not through split(separator:), which builds an array for every
            // response that has the field.
            var rest = value
            while true {
                let comma = rest.firstIndex(of: UInt8(ascii: ","))
                let trimmed = HeadBlockLines.trimmedBytes(rest[..<(comma ?? rest.endIndex)])
                if let firstLength, !firstLength.elementsEqual(trimmed) {
                    return "Content-Length is given more than once with different values (\(self["Content-Length"] ?? ""))"
                }
                firstLength = firstLength ?? trimmed
                guard let comma else { break }
                rest = rest[(comma + 1)...]
            }
        }
        return nil
    }

    private func problemInFields() -> String? {
        var lengths: Set<String> = []
        for field in self {
            if let problem = ResponseFieldCheck.problem(name: field.name, value: field.value) { return problem }
            if HeaderName.equal(field.name, "Content-Length") {
                for length in field.value.split(separator: ",", omittingEmptySubsequences: false) {
                    lengths.insert(length.trimmingCharacters(in: .whitespaces))
                }
            }
        }
        guard lengths.count > 1 else { return nil }
        return "Content-Length is given more than once with different values (\(self["Content-Length"] ?? ""))"
    }

    public var description: String {
        map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    public func makeIterator() -> IndexingIterator<[HeaderField]> {
        var fields: [HeaderField] = []
        forEachField { fields.append($0) }
        return fields.makeIterator()
    }

    /// Calls `body` with each field in order, folded lines already joined to their field.
    /// Calls `body` with each value of the field `name`. In a head block the names are compared
    /// as bytes and only a matching field's value is decoded, so reading one field of a block
    /// builds no String for the others.
    private func forEachValue(named name: String, _ body: (String) -> Void) {
        guard case .block(let bytes) = storage else {
            forEachField { field in
                if HeaderName.equal(field.name, name) { body(field.value) }
            }
            return
        }
        var lines = HeadBlockLines(bytes)
        _ = lines.next()
        var pending: String?
        while let line = lines.next() {
            if let first = line.first, first == HeadBlockLines.space || first == HeadBlockLines.tab {
                pending?.append(" " + HeadBlockLines.trimmed(line))
                continue
            }
            guard let colon = line.firstIndex(of: HeadBlockLines.colon) else { continue }
            if let pending { body(pending) }
            pending = HeaderName.equal(bytes: line[..<colon], name) ? HeadBlockLines.trimmed(line[(colon + 1)...]) : nil
        }
        if let pending { body(pending) }
    }

    private func forEachField(_ body: (HeaderField) -> Void) {
        switch storage {
        case .fields(let fields):
            for field in fields { body(field) }
        case .foundation(let response):
            for (name, value) in response.http.allHeaderFields {
                guard let name = name as? String, let value = value as? String else { continue }
                body(HeaderField(name: name, value: value))
            }
        case .block(let bytes):
            var lines = HeadBlockLines(bytes)
            _ = lines.next()
            var pending: HeaderField?
            while let line = lines.next() {
                if let first = line.first, first == HeadBlockLines.space || first == HeadBlockLines.tab {
                    pending?.value += " " + HeadBlockLines.trimmed(line)
                    continue
                }
                guard let colon = line.firstIndex(of: HeadBlockLines.colon) else { continue }
                if let pending { body(pending) }
                pending = HeaderField(
                    name: String(decoding: line[..<colon], as: UTF8.self),
                    value: HeadBlockLines.trimmed(line[(colon + 1)...])
                )
            }
            if let pending { body(pending) }
        }
    }
}

/// One pass over a head block that rules out every problem ``HeaderFields/problem`` reports,
/// for a usual response, without reading it field by field: most bytes are printable, and a
/// single comparison lets them by.
enum HeadBlockSweep {
    /// False only when the fields of `block` hold none of: a CR or NUL in a value, a folded line
    /// (which may continue a `Content-Length`), a second `Content-Length` field, or one whose
    /// value is a list. True asks for the field-by-field check, which gives the answer; so this
    /// may answer true where that finds nothing (a CR in a name), never false where it finds
    /// something.
    static func mayHoldProblem(_ block: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = block.count
        var index = 0
        // The status line is not a field; a block whose first line is empty only checks more.
        while index < count, block[index] != HeadBlockLines.lineFeed { index += 1 }
        index += 1
        var contentLengths = 0
        var lineStart = true
        while index < count {
            let byte = block[index]
            if lineStart {
                lineStart = false
                if byte == HeadBlockLines.space || byte == HeadBlockLines.tab { return true }
                if byte | 0x20 == UInt8(ascii: "c"), startsContentLength(block, at: index) {
                    contentLengths += 1
                    if contentLengths > 1 || holdsComma(block, from: index) { return true }
                }
            }
            index += 1
            // The rest of a name or value: bytes above CR, skipped eight at a time.
            if byte > HeadBlockLines.carriageReturn {
                index = ByteScan.indexOfLineBreakOrControl(in: block, from: index)
                continue
            }
            switch byte {
            case HeadBlockLines.lineFeed:
                lineStart = true
            case HeadBlockLines.carriageReturn:
                // Only a CR that ends its line is not inside a value.
                if index == count || block[index] != HeadBlockLines.lineFeed { return true }
            case 0:
                return true
            default:
                continue
            }
        }
        return false
    }

    /// Whether the line at `start` is a `Content-Length` field (its name, then the colon).
    private static func startsContentLength(_ block: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        let nameLength = 14
        guard start + nameLength < block.count, block[start + nameLength] == HeadBlockLines.colon else { return false }
        return ResponseFieldCheck.isContentLength(UnsafeBufferPointer(rebasing: block[start..<(start + nameLength)]))
    }

    /// Whether the line at `start` holds a comma before its end.
    private static func holdsComma(_ block: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index < block.count, block[index] != HeadBlockLines.lineFeed {
            if block[index] == UInt8(ascii: ",") { return true }
            index += 1
        }
        return false
    }
}

/// A Foundation response carried inside a ``ResponseHead`` read from it.
struct FoundationResponse: @unchecked Sendable {
    // @unchecked: HTTPURLResponse is immutable once built, but not declared Sendable everywhere.
    let http: HTTPURLResponse
}

/// Header names compared as RFC 9110 §5.1 says: without regard to case.
enum HeaderName {
    static func equal(_ lhs: String, _ rhs: String) -> Bool {
        equal(bytes: lhs.utf8, rhs)
    }

    /// `bytes` against `name`, so a name in a head block is compared without decoding it.
    static func equal(bytes: some Sequence<UInt8>, _ name: String) -> Bool {
        var left = bytes.makeIterator()
        var right = name.utf8.makeIterator()
        while true {
            switch (left.next(), right.next()) {
            case (nil, nil): return true
            case (let l?, let r?):
                if l == r { continue }
                if lowercased(l) != lowercased(r) { return false }
            default: return false
            }
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }
}

/// The non-empty lines of a head block without their LF or CRLF, found one at a time so that no
/// array of lines is built.
package struct HeadBlockLines: IteratorProtocol {
    static let lineFeed = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let colon = UInt8(ascii: ":")

    private let bytes: [UInt8]
    private var start: Int

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.startIndex
    }

    package mutating func next() -> ArraySlice<UInt8>? {
        while start < bytes.endIndex {
            let lineStart = start
            guard let lineFeed = bytes[lineStart...].firstIndex(of: Self.lineFeed) else {
                start = bytes.endIndex
                return bytes[lineStart...]
            }
            start = lineFeed + 1
            var end = lineFeed
            if end > lineStart, bytes[end - 1] == Self.carriageReturn { end -= 1 }
            if end > lineStart { return bytes[lineStart..<end] }
        }
        return nil
    }

    /// `bytes` without leading and trailing spaces and tabs.
    static func trimmedBytes(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard let first = bytes.firstIndex(where: { $0 != space && $0 != tab }),
              let last = bytes.lastIndex(where: { $0 != space && $0 != tab }) else { return [] }
        return bytes[first...last]
    }

    /// `bytes` without leading and trailing spaces and tabs, decoded (invalid UTF-8 repaired).
    package static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: trimmedBytes(bytes), as: UTF8.self)
    }
}
