#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 6, UTF-8 handling: every well-formed sequence is read as text,
/// split across fragments anywhere, and every ill-formed one (overlong forms, surrogates, code
/// points past U+10FFFF, stray continuation bytes, a character cut by the end of the message)
/// fails the connection with 1007 and `URLError(.badServerResponse)`, as soon as the frame that
/// shows it is read. A close reason that is not UTF-8 fails it too (Autobahn 7.5.1).
@Suite(.timeLimit(.minutes(5))) struct UTF8ConformanceTests {
    /// Well-formed text (Autobahn 6.2, 6.5, 6.7–6.9, 6.22, 6.23): multi-byte characters, the
    /// first and last sequence of each length, the edges of the surrogate gap, noncharacters.
    static let valid: [[UInt8]] = [
        Array("Hello-µ@ßöäüàá-UTF-8!!".utf8), Array("κόσμε".utf8),
        [0x00], [0xC2, 0x80], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
        [0x7F], [0xDF, 0xBF], [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
        [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBD], [0xEF, 0xBF, 0xBE], [0xF0, 0x9F, 0x98, 0x80],
        Array("𝄞 and 🎼 in text, 中文, עברית".utf8),
    ]

    /// Ill-formed UTF-8 (Autobahn 6.3, 6.6, 6.8–6.21).
    static let invalid: [[UInt8]] = [
        // Overlong forms, of "/" and of the largest values that fit a shorter form.
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x80, 0x80, 0xAF], [0xF8, 0x80, 0x80, 0x80, 0xAF],
        [0xC1, 0xBF], [0xE0, 0x9F, 0xBF], [0xF0, 0x8F, 0xBF, 0xBF], [0xC0, 0x80], [0xE0, 0x80, 0x80],
        // Surrogates, alone and paired.
        [0xED, 0xA0, 0x80], [0xED, 0xAD, 0xBF], [0xED, 0xAE, 0x80], [0xED, 0xAF, 0xBF], [0xED, 0xB0, 0x80],
        [0xED, 0xBF, 0xBF], [0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80],
        // Past U+10FFFF, and bytes that never appear.
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF7, 0xBF, 0xBF, 0xBF], [0xFE], [0xFF],
        // Continuation bytes without a lead byte, and a lead byte without them.
        [0x80], [0xBF], [0x80, 0xBF], [0xC0, 0x20], [0xE0, 0x20], Array("κόσμε".utf8) + [0xED, 0xA0, 0x80] + Array("edited".utf8),
    ]

    /// A character cut short by the end of the message (Autobahn 6.6.x, 6.3.x): valid so far,
    /// invalid only because nothing follows.
    static let truncated: [[UInt8]] = [
        [0xC2], [0xE0, 0xA0], [0xF0, 0x90, 0x80], Array("Hello".utf8) + [0xE2, 0x82], Array("κόσμ".utf8) + [0xCE],
    ]

    @Test(arguments: valid) func validTextIsReadAndEchoed(bytes: [UInt8]) async throws {
        try await readsAsText(bytes, in: [.text(bytes: bytes)])
    }

    /// Autobahn 6.2.3, 6.2.4: in one-byte fragments, each character split between frames.
    @Test(arguments: valid) func validTextInOneByteFragmentsIsReadAndEchoed(bytes: [UInt8]) async throws {
        try await readsAsText(bytes, in: oneByteFragments(bytes))
    }

    /// Autobahn 6.2.2: in two fragments cut inside a character, each half one frame, byte by byte.
    @Test func aCharacterSplitAcrossFragmentsDeliveredByteByByteIsRead() async throws {
        let bytes = Array("κόσμε 𝄞".utf8)
        let frames: [WireFrame] = [.text(bytes: Array(bytes[..<3]), fin: false), .continuation(Array(bytes[3...]), fin: true)]
        try await readsAsText(bytes, in: frames, byteByByte: true)
    }

    @Test(arguments: invalid) func invalidTextFailsWith1007(bytes: [UInt8]) async throws {
        try await failsWith1007([.text(bytes: bytes)])
    }

    /// Autobahn 6.3.2, 6.4.x: the same in one-byte fragments: the fragment that makes the
    /// text invalid fails it.
    @Test(arguments: invalid) func invalidTextInOneByteFragmentsFailsWith1007(bytes: [UInt8]) async throws {
        try await failsWith1007(oneByteFragments(bytes))
    }

    @Test(arguments: truncated) func textEndingInsideACharacterFailsWith1007(bytes: [UInt8]) async throws {
        try await failsWith1007([.text(bytes: bytes)])
    }

    @Test(arguments: truncated) func textInOneByteFragmentsEndingInsideACharacterFailsWith1007(bytes: [UInt8]) async throws {
        try await failsWith1007(oneByteFragments(bytes))
    }

    /// Autobahn 6.4.1–6.4.4, fail fast: the invalid fragment fails the connection at once, not
    /// at the end of the message. The server sends the rest only after the client's close, so a
    /// client that waited for it would never close.
    @Test(arguments: [
        [0xF4, 0x90, 0x80, 0x80],  // U+110000 written as if it were UTF-8
        [0xED, 0xA0, 0x80],  // a surrogate
    ] as [[UInt8]])
    func anInvalidFragmentFailsBeforeTheMessageEnds(bad: [UInt8]) async throws {
        var reading = Reading()
        let record = try await conformanceCase([
            .send([.text("κόσμε", fin: false)]), .pause(.milliseconds(1)), .send([.continuation(bad, fin: false)]),
            .awaitClose, .send([.continuation("edited", fin: true)]),
        ]) { socket, _ in
            reading = await socket.readToEnd(echoing: false)
        }
        #expect(reading.messages.isEmpty)
        #expect(reading.ending == .failed(.badServerResponse))
        #expect(record.closeCode == 1007)
    }

    /// Autobahn 7.5.1: a close reason that is not UTF-8.
    @Test(arguments: [[0xED, 0xA0, 0x80], [0xC0, 0xAF], [0xCE]] as [[UInt8]])
    func aCloseReasonThatIsNotUTF8FailsWith1007(bad: [UInt8]) async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send([.close(1000, reasonBytes: Array("κόσμε".utf8) + bad)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.ending == .failed(.badServerResponse))
        #expect(record.closeCode == 1007)
        #expect(record.closes.count == 1)
    }

    // MARK: Helpers

    private func oneByteFragments(_ bytes: [UInt8]) -> [WireFrame] {
        guard !bytes.isEmpty else { return [.text(bytes: [])] }
        return bytes.indices.map { index in
            WireFrame(
                fin: index == bytes.count - 1, opcode: index == 0 ? WireFrame.text : WireFrame.continuation,
                payload: [bytes[index]])
        }
    }

    private func readsAsText(
        _ bytes: [UInt8], in frames: [WireFrame], byteByByte: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let step: ScriptedWebSocketServer.Step =
            byteByByte ? .sendInPieces(frames.bytes, size: 1, pause: .microseconds(200)) : .send(frames)
        var reading = Reading()
        let record = try await conformanceCase([step, .awaitFrames(1), .send([.close(1000)])]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string(String(decoding: bytes, as: UTF8.self))], sourceLocation: sourceLocation)
        #expect(reading.messages.first?.bytes == bytes, "the text's bytes changed", sourceLocation: sourceLocation)
        #expect(reading.ending == .normal, sourceLocation: sourceLocation)
        #expect(record.messages.map(\.payload) == [bytes], sourceLocation: sourceLocation)
        #expect(record.messages.first?.opcode == WireFrame.text, sourceLocation: sourceLocation)
        #expect(record.closeCode == 1000, sourceLocation: sourceLocation)
    }

    private func failsWith1007(_ frames: [WireFrame], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send(frames)]) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages.isEmpty, sourceLocation: sourceLocation)
        #expect(reading.ending == .failed(.badServerResponse), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.closeCode == 1007, sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
    }
}
#endif
