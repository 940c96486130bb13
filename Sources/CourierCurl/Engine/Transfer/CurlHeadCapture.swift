/// The header lines of one transfer, copied as libcurl hands them over: the final response's
/// head and, once a streamed body's head was handed over, its trailer section. Only bytes are
/// copied here; parsing waits for the awaiting task.
struct CurlHeadCapture {
    /// What one header line did.
    enum LineOutcome {
        case kept
        /// The empty line that ends a final (not 1xx) response's head whose body streams: the
        /// head is to be handed over now; lines after it are the trailer section.
        case headComplete
        /// The headers passed their limit: the transfer is to stop.
        case tooLarge(CurlError)
    }

    private let maximumBytes: Int
    /// Whether the body streams, so the head is handed over as soon as it is complete.
    private let streams: Bool
    /// The current response's head: a status line starts a new block, so interim responses
    /// (100 Continue) are dropped.
    private(set) var headerBytes: [UInt8] = []
    /// Every header byte received, interim responses and trailers included.
    private(set) var byteCount = 0
    /// A streamed body's head was handed over; header lines now are trailers.
    private(set) var isHandedOver = false
    private var trailerBytes: [UInt8] = []
    /// Whether ``altSvc`` is looked for: only when the transport keeps an Alt-Svc cache.
    private let watchesAltSvc: Bool
    /// The final response's `Alt-Svc` field value, which libcurl has put in this handle's cache.
    private(set) var altSvc: String?

    init(maximumBytes: Int, streams: Bool, watchesAltSvc: Bool = false) {
        self.maximumBytes = max(0, maximumBytes)
        self.streams = streams
        self.watchesAltSvc = watchesAltSvc
    }

    mutating func receive(_ line: UnsafeRawBufferPointer) -> LineOutcome {
        byteCount += line.count
        guard byteCount <= maximumBytes else {
            return .tooLarge(CurlError(
                kind: .headersTooLarge, curlCode: 0,
                message: "the response headers exceed the limit of \(maximumBytes) bytes (Policies.maximumHeaderBytes)"
            ))
        }
        if isHandedOver {
            trailerBytes.append(contentsOf: line)
            return .kept
        }
        if line.count >= 5, line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"),
           line[2] == UInt8(ascii: "T"), line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/") {
            headerBytes.removeAll(keepingCapacity: true)
            altSvc = nil
        } else if watchesAltSvc, let value = Self.altSvcValue(line) {
            altSvc = value
        }
        // One allocation for a typical header block instead of a doubling series.
        if headerBytes.capacity == 0 { headerBytes.reserveCapacity(512) }
        headerBytes.append(contentsOf: line)
        if streams, Self.isEmptyLine(line), let status = CurlResponseHead.statusLine(in: headerBytes),
           !(100...199).contains(status.code) {
            isHandedOver = true
            return .headComplete
        }
        return .kept
    }

    /// Hands the head over for good, once the transfer is done with it.
    mutating func takeHeaderBytes() -> [UInt8] {
        defer { headerBytes = [] }
        return headerBytes
    }

    /// The trailer section's fields, joined as the head's are.
    var trailerFields: [String: String] {
        guard !trailerBytes.isEmpty else { return [:] }
        return CurlResponseHead(bytes: Array("HTTP/1.1 200 \r\n".utf8) + trailerBytes)?.fields ?? [:]
    }

    /// The value of an `Alt-Svc:` line (any letter case), trimmed; nil for another line.
    static func altSvcValue(_ line: UnsafeRawBufferPointer) -> String? {
        let name = "alt-svc:".utf8
        guard line.count > name.count, zip(line, name).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return nil }
        let value = String(decoding: line.dropFirst(name.count), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    private static func isEmptyLine(_ line: UnsafeRawBufferPointer) -> Bool {
        (line.count == 2 && line[0] == 0x0D && line[1] == 0x0A) || (line.count == 1 && line[0] == 0x0A)
    }
}
