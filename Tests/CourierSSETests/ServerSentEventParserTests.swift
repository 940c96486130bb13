import CourierSSE
import Foundation
import Testing

/// The parser against the WHATWG HTML specification's "Parsing an event stream" and its examples,
/// each fed whole, split at every byte offset and with every line end.
@Suite struct ServerSentEventParserTests {
    /// A stream and the events the specification dispatches from it.
    struct Example: Sendable, CustomTestStringConvertible {
        var name: String
        var stream: String
        var events: [ServerSentEvent]
        var testDescription: String { name }
    }

    static let examples: [Example] = [
        Example(
            name: "stock",
            stream: "data: YHOO\ndata: +2\ndata: 10\n\n",
            events: [ServerSentEvent(data: "YHOO\n+2\n10")]
        ),
        Example(
            name: "comment, id, id without value, two spaces",
            stream: ": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n",
            events: [
                ServerSentEvent(data: "first event", lastEventID: "1"),
                ServerSentEvent(data: "second event"),
                ServerSentEvent(data: " third event"),
            ]
        ),
        Example(
            name: "data without colon, and a last event with no blank line",
            stream: "data\n\ndata\ndata\n\ndata:",
            events: [ServerSentEvent(data: ""), ServerSentEvent(data: "\n")]
        ),
        Example(
            name: "one optional space after the colon",
            stream: "data:test\n\ndata: test\n\n",
            events: [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")]
        ),
        Example(
            name: "event types, as cross-origin feeds name them",
            stream: "event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\nevent: add\ndata: 113411\n\n",
            events: [
                ServerSentEvent(type: "add", data: "73857293"),
                ServerSentEvent(type: "remove", data: "2153"),
                ServerSentEvent(type: "add", data: "113411"),
            ]
        ),
        Example(
            name: "the last event ID persists, and is ignored with NUL",
            stream: "id: a\ndata: 1\n\ndata: 2\n\nid: b\u{0}c\ndata: 3\n\nid: d\n\ndata: 4\n\n",
            events: [
                ServerSentEvent(data: "1", lastEventID: "a"),
                ServerSentEvent(data: "2", lastEventID: "a"),
                ServerSentEvent(data: "3", lastEventID: "a"),
                ServerSentEvent(data: "4", lastEventID: "d"),
            ]
        ),
        Example(
            name: "retry takes ASCII digits only",
            stream: "retry: 1500\ndata: a\n\nretry: 15a\nretry: -1\nretry:\nretry: 2.5\ndata: b\n\nretry: 20\n\ndata: c\n\n",
            events: [
                ServerSentEvent(data: "a", reconnectionTime: .milliseconds(1500)),
                ServerSentEvent(data: "b", reconnectionTime: .milliseconds(1500)),
                ServerSentEvent(data: "c", reconnectionTime: .milliseconds(20)),
            ]
        ),
        Example(
            name: "unknown fields, empty event, no data",
            stream: "foo: bar\ndata: x\n\nevent: lonely\n\nevent:\ndata: y\n\n:comment\nevent: kept\n\n",
            events: [ServerSentEvent(data: "x"), ServerSentEvent(data: "y")]
        ),
        Example(
            name: "byte order mark and multi-byte characters",
            stream: "\u{FEFF}data: caf\u{E9} \u{1F600}\ndata: \u{4E2D}\u{6587}\n\n",
            events: [ServerSentEvent(data: "caf\u{E9} \u{1F600}\n\u{4E2D}\u{6587}")]
        ),
        Example(
            name: "a colon in the value",
            stream: "event:a:b\ndata:: x :\n\n",
            events: [ServerSentEvent(type: "a:b", data: ": x :")]
        ),
    ]

    /// Each line end of the examples as LF, CRLF and CR.
    static let lineEnds = ["\n", "\r\n", "\r"]

    static func bytes(_ example: Example, lineEnd: String) -> [UInt8] {
        Array(example.stream.replacingOccurrences(of: "\n", with: lineEnd).utf8)
    }

    static func parse(_ pieces: [ArraySlice<UInt8>], maximumEventBytes: Int = 1 << 20) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser(maximumEventBytes: maximumEventBytes)
        var events: [ServerSentEvent] = []
        for piece in pieces { events += try parser.parse(piece) }
        parser.finish()
        return events
    }

    @Test(arguments: examples, lineEnds)
    func everyExampleGivesItsEventsWhole(example: Example, lineEnd: String) throws {
        let bytes = Self.bytes(example, lineEnd: lineEnd)
        #expect(try Self.parse([bytes[...]]) == example.events)
    }

    @Test(arguments: examples, lineEnds)
    func everyExampleGivesTheSameEventsSplitAtEveryOffset(example: Example, lineEnd: String) throws {
        let bytes = Self.bytes(example, lineEnd: lineEnd)
        for offset in 0...bytes.count {
            let events = try Self.parse([bytes[..<offset], bytes[offset...]])
            #expect(events == example.events, "split at \(offset)")
        }
    }

    @Test(arguments: examples, lineEnds)
    func everyExampleGivesTheSameEventsInThreePiecesAndByteByByte(example: Example, lineEnd: String) throws {
        let bytes = Self.bytes(example, lineEnd: lineEnd)
        for first in 0...bytes.count {
            for second in first...bytes.count {
                let events = try Self.parse([bytes[..<first], bytes[first..<second], bytes[second...]])
                #expect(events == example.events, "split at \(first) and \(second)")
            }
        }
        #expect(try Self.parse(bytes.indices.map { bytes[$0...$0] }) == example.events)
    }

    /// A CR that ends one piece and an LF that starts the next are one line end: counted as two,
    /// the blank line between them would dispatch `a` alone.
    @Test func aCarriageReturnAndALineFeedInTwoPiecesAreOneLineEnd() throws {
        var parser = ServerSentEventParser()
        #expect(try parser.parse(Array("data: a\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\ndata: b\r".utf8)).isEmpty)
        #expect(try parser.parse(Array("\n\r\n".utf8)) == [ServerSentEvent(data: "a\nb")])
    }

    @Test func mixedLineEndsInOneStream() throws {
        let stream = "data: a\rdata: b\r\ndata: c\n\r\n\rdata: d\n\r"
        #expect(try Self.parse([Array(stream.utf8)[...]]) == [ServerSentEvent(data: "a\nb\nc"), ServerSentEvent(data: "d")])
    }

    @Test func onlyOneLeadingByteOrderMarkIsDropped() throws {
        #expect(try Self.parse([Array("\u{FEFF}data: a\n\n".utf8)[...]]) == [ServerSentEvent(data: "a")])
        // The second makes the field's name "\u{FEFF}data", which is no field.
        #expect(try Self.parse([Array("\u{FEFF}\u{FEFF}data: a\n\n".utf8)[...]]).isEmpty)
        #expect(try Self.parse([Array("data: a\n\n\u{FEFF}data: b\n\n".utf8)[...]]) == [ServerSentEvent(data: "a")])
    }

    @Test func invalidUTF8BecomesReplacementCharacters() throws {
        let bytes: [UInt8] = Array("data: a".utf8) + [0xFF] + Array("b".utf8) + [0xF0, 0x9F, 0x98] + Array("\nid: ".utf8) + [0xC3] + [0x0A, 0x0A]
        let events = try Self.parse([bytes[...]])
        #expect(events == [ServerSentEvent(data: "a\u{FFFD}b\u{FFFD}", lastEventID: "\u{FFFD}")])
        for offset in 0...bytes.count {
            #expect(try Self.parse([bytes[..<offset], bytes[offset...]]) == events, "split at \(offset)")
        }
    }

    @Test func theEventTypeIsResetAfterEachDispatch() throws {
        let events = try Self.parse([Array("event: a\ndata: 1\n\ndata: 2\n\n".utf8)[...]])
        #expect(events.map(\.type) == ["a", "message"])
    }

    @Test func theLastEventIDIsKeptAcrossFinishForAReconnection() throws {
        var parser = ServerSentEventParser()
        _ = try parser.parse(Array("id: 7\nretry: 300\ndata: a\n\nid: 8\ndata: cut off".utf8))
        parser.finish()
        #expect(parser.lastEventID == "7")
        #expect(parser.reconnectionTime == .milliseconds(300))
        #expect(try parser.parse(Array("\u{FEFF}data: b\n\n".utf8)) == [ServerSentEvent(data: "b", lastEventID: "7", reconnectionTime: .milliseconds(300))])
    }

    // MARK: - Bounds

    @Test func aLineThatNeverEndsFailsAtTheLimitWithBoundedMemory() throws {
        var parser = ServerSentEventParser()
        let piece = [UInt8](repeating: UInt8(ascii: "x"), count: 64 << 10)
        var consumed = 0
        var failure: ServerSentEventsError?
        do {
            _ = try parser.parse(Array("data: ".utf8))
            while consumed < 16 << 20 {
                _ = try parser.parse(piece)
                consumed += piece.count
                #expect(parser.bufferedByteCount <= ServerSentEventParser.defaultMaximumEventBytes)
            }
        } catch {
            failure = error
        }
        #expect(failure == ServerSentEventsError(code: .lineTooLong, maximumBytes: 1 << 20))
        #expect(consumed < (1 << 20) + piece.count)
        #expect(parser.bufferedByteCount == 0)
        #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 1 << 20)) { try parser.parse(Array("\n\n".utf8)) }
        #expect(failure?.description.contains("1048576 bytes") == true)
    }

    @Test func parsingIntoKeepsTheEventsBeforeTheFailure() {
        var parser = ServerSentEventParser(maximumEventBytes: 8)
        var events: [ServerSentEvent] = []
        #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 8)) {
            try parser.parse(Array("data: a\n\ndata: 123456789\n\n".utf8), into: &events)
        }
        #expect(events == [ServerSentEvent(data: "a")])
    }

    @Test func aLineOfExactlyTheLimitPasses() throws {
        let line = "data: " + String(repeating: "y", count: 10)
        #expect(try Self.parse([Array((line + "\n\n").utf8)[...]], maximumEventBytes: 16) == [ServerSentEvent(data: String(repeating: "y", count: 10))])
        #expect(throws: ServerSentEventsError(code: .lineTooLong, maximumBytes: 15)) {
            try Self.parse([Array((line + "\n\n").utf8)[...]], maximumEventBytes: 15)
        }
    }

    @Test func anEventWhoseDataPassesTheLimitFails() throws {
        let stream = String(repeating: "data: 0123456789\n", count: 10) + "\n"
        #expect(throws: ServerSentEventsError(code: .eventTooLarge, maximumBytes: 64)) {
            try Self.parse([Array(stream.utf8)[...]], maximumEventBytes: 64)
        }
        // Eleven bytes a line, the line feed included: 110 fit in 110.
        #expect(try Self.parse([Array(stream.utf8)[...]], maximumEventBytes: 110).count == 1)
    }

    @Test func errorsNameTheirLimit() {
        #expect(ServerSentEventsError(code: .eventTooLarge, maximumBytes: 64).description.contains("64 bytes"))
        #expect(ServerSentEventsError.Code.lineTooLong.description == "lineTooLong")
    }
}
