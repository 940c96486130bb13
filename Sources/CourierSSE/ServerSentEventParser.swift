/// Turns the bytes of a `text/event-stream` into events, as the WHATWG HTML specification's
/// "Parsing an event stream" and "Interpreting an event stream" say, whatever pieces the bytes
/// arrive in.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for try await chunk in body {
///     for event in try parser.parse(chunk) { print(event.type, event.data) }
/// }
/// parser.finish()
/// ```
///
/// A value with no I/O: feed it each piece as it arrives, split anywhere (inside a line, between
/// the CR and LF of a line end, inside a multi-byte character), and it returns the events the
/// piece completes. Lines end with CR, LF or CRLF; a leading byte order mark is dropped;
/// invalid UTF-8 becomes U+FFFD. An event is dispatched only by the blank line after it, so one
/// the stream ends in the middle of is never returned.
///
/// Memory stays bounded: a line longer than ``maximumEventBytes``, or an event whose `data`
/// fields together are, throws ``ServerSentEventsError``, after which every call throws it again.
public struct ServerSentEventParser: Sendable {
    /// The default bound on one line and on one event's data: 1 MiB.
    public static let defaultMaximumEventBytes = 1 << 20

    /// The most bytes one line, or the `data` of one event, may hold.
    public let maximumEventBytes: Int

    /// The last event ID as of the last event dispatched, or attempted with no data: what a
    /// reconnection sends as `Last-Event-ID`.
    public private(set) var lastEventID = ""

    /// The reconnection time set by the last `retry` field with a valid value, if any.
    public private(set) var reconnectionTime: Duration?

    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var eventType = ""
    private var lastEventIDBuffer = ""
    /// The last byte was a CR, so an LF next completes the same line end, even in the next piece.
    private var afterCarriageReturn = false
    /// No line has ended and the bytes so far could still be the byte order mark.
    private var atStreamStart = true
    private var failure: ServerSentEventsError?

    /// Creates a parser for a new stream.
    ///
    /// - Parameter maximumEventBytes: The most bytes one line, or the `data` of one event, may
    ///   hold; at least 1.
    public init(maximumEventBytes: Int = defaultMaximumEventBytes) {
        self.maximumEventBytes = max(1, maximumEventBytes)
    }

    /// The events that `bytes`, the next piece of the stream, completes, in order.
    ///
    /// - Throws: ``ServerSentEventsError`` once a line or an event passes ``maximumEventBytes``,
    ///   and from then on; the events the piece completed before that are lost, which
    ///   ``parse(_:into:)`` keeps.
    public mutating func parse(_ bytes: some Sequence<UInt8>) throws(ServerSentEventsError) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        try parse(bytes, into: &events)
        return events
    }

    /// Appends to `events` the events that `bytes`, the next piece of the stream, completes, in
    /// order, even when a later byte of the piece makes it throw.
    ///
    /// - Throws: ``ServerSentEventsError`` once a line or an event passes ``maximumEventBytes``,
    ///   and from then on.
    public mutating func parse(_ bytes: some Sequence<UInt8>, into events: inout [ServerSentEvent]) throws(ServerSentEventsError) {
        if let failure { throw failure }
        do throws(ServerSentEventsError) {
            for byte in bytes {
                if afterCarriageReturn {
                    afterCarriageReturn = false
                    if byte == Self.lineFeed { continue }
                }
                switch byte {
                case Self.carriageReturn:
                    afterCarriageReturn = true
                    try endLine(into: &events)
                case Self.lineFeed:
                    try endLine(into: &events)
                default:
                    guard line.count < maximumEventBytes else {
                        throw ServerSentEventsError(code: .lineTooLong, maximumBytes: maximumEventBytes)
                    }
                    line.append(byte)
                    if atStreamStart { dropByteOrderMark() }
                }
            }
        } catch {
            failure = error
            line = []
            data = []
            throw error
        }
    }

    /// Ends the stream: drops a line without its line end and an event without the blank line
    /// that would dispatch it, as the specification says, and readies the parser for the next
    /// stream of a reconnection, keeping ``lastEventID`` and ``reconnectionTime``.
    public mutating func finish() {
        line = []
        data = []
        eventType = ""
        lastEventIDBuffer = lastEventID
        afterCarriageReturn = false
        atStreamStart = true
    }

    /// The bytes held for a line and an event not yet complete: never much more than twice
    /// ``maximumEventBytes``.
    package var bufferedByteCount: Int {
        line.count + data.count + eventType.utf8.count + lastEventIDBuffer.utf8.count
    }

    private mutating func dropByteOrderMark() {
        if line.elementsEqual(Self.byteOrderMark) {
            line.removeAll()
            atStreamStart = false
        } else if !Self.byteOrderMark.starts(with: line) {
            atStreamStart = false
        }
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) throws(ServerSentEventsError) {
        atStreamStart = false
        defer { line.removeAll(keepingCapacity: true) }
        guard let first = line.first else {
            dispatch(into: &events)
            return
        }
        guard first != Self.colon else { return }
        let colon = line.firstIndex(of: Self.colon) ?? line.endIndex
        let name = line[..<colon]
        var value = line[colon...].dropFirst()
        if value.first == Self.space { value = value.dropFirst() }
        try process(field: name, value: value)
    }

    private mutating func process(field name: ArraySlice<UInt8>, value: ArraySlice<UInt8>) throws(ServerSentEventsError) {
        if name.elementsEqual("data".utf8) {
            guard data.count + value.count + 1 <= maximumEventBytes else {
                throw ServerSentEventsError(code: .eventTooLarge, maximumBytes: maximumEventBytes)
            }
            data.append(contentsOf: value)
            data.append(Self.lineFeed)
        } else if name.elementsEqual("event".utf8) {
            eventType = String(decoding: value, as: UTF8.self)
        } else if name.elementsEqual("id".utf8) {
            if !value.contains(0) { lastEventIDBuffer = String(decoding: value, as: UTF8.self) }
        } else if name.elementsEqual("retry".utf8) {
            // Digits only, so a sign, a space or a fraction leaves the reconnection time as it
            // was; a value past Int's range is as unusable, and ignored too.
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
               let milliseconds = Int(String(decoding: value, as: UTF8.self)) {
                reconnectionTime = .milliseconds(milliseconds)
            }
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = lastEventIDBuffer
        defer { eventType = "" }
        guard !data.isEmpty else { return }
        if data.last == Self.lineFeed { data.removeLast() }
        events.append(
            ServerSentEvent(
                type: eventType.isEmpty ? "message" : eventType,
                data: String(decoding: data, as: UTF8.self),
                lastEventID: lastEventID,
                reconnectionTime: reconnectionTime
            )
        )
        data.removeAll(keepingCapacity: true)
    }

    private static let lineFeed: UInt8 = 0x0A
    private static let carriageReturn: UInt8 = 0x0D
    private static let colon: UInt8 = 0x3A
    private static let space: UInt8 = 0x20
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
