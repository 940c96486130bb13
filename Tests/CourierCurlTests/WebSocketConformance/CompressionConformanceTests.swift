#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's sections 12 and 13 in spirit, permessage-deflate (RFC 7692): the client
/// offers it when asked, reads every form of compressed message RFC 7692 gives (one block,
/// fragments, stored blocks, BFINAL set, two blocks, the window kept between messages), compresses
/// its own with the window the agreement says, and fails with 1002 on RSV1 where RFC 7692 §6
/// forbids it and with 1009 on a message that inflates past the limit, a bomb included, having
/// inflated no more than the limit. The server's compressed bytes are written by hand
/// (``DeflateBytes``, RFC 7692's examples), and the client's are read back by Python's zlib.
@Suite(.timeLimit(.minutes(5))) struct CompressionConformanceTests {
    static let agreed = ["Sec-WebSocket-Extensions: permessage-deflate"]

    // MARK: The offer

    @Test(arguments: [true, false]) func theClientOffersPermessageDeflateOnlyWhenAsked(compression: Bool) async throws {
        let options = WebSocket.Options.patient(compression: compression ? .permessageDeflate : nil)
        let record = try await conformanceCase([], options: options) { socket, _ in
            try await socket.close()
        }
        let offer = record.requestHead.components(separatedBy: "\r\n").filter { $0.lowercased().hasPrefix("sec-websocket-extensions:") }
        #expect(offer == (compression ? ["Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits"] : []))
        #expect(record.closeCode == 1000)
    }

    // MARK: Reading compressed messages

    /// RFC 7692 §7.2.3's ways of sending "Hello", each read as it, and echoed compressed.
    static let hello: [Example] = [
        Example("one compressed block (§7.2.3.1)", [compressedText([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])]),
        Example(
            "in two fragments (§7.2.3.1)",
            [compressedText([0xF2, 0x48, 0xCD], fin: false), .continuation([0xC9, 0xC9, 0x07, 0x00], fin: true)]),
        Example("a stored block (§7.2.3.3)", [compressedText([0x00, 0x05, 0x00, 0xFA, 0xFF, 0x48, 0x65, 0x6C, 0x6C, 0x6F, 0x00])]),
        Example("BFINAL set (§7.2.3.4)", [compressedText([0xF3, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x00])]),
        Example(
            "two blocks (§7.2.3.5)",
            [compressedText([0xF2, 0x48, 0x05, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xCA, 0xC9, 0xC9, 0x07, 0x00])]),
    ]

    @Test(arguments: hello) func rfc7692sHelloIsReadAndEchoedCompressed(example: Example) async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [.send(example.frames), .awaitFrames(1), .send([.close(1000)])], responseFields: Self.agreed,
            options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string("Hello")])
        #expect(reading.ending == .normal)
        let echo = try #require(record.frames.first)
        #expect(echo.rsv == 4, "the echo went uncompressed")
        #expect(try await inflatedByZlib([echo.payload], sharedWindow: true) == [Array("Hello".utf8)])
        #expect(record.closeCode == 1000)
    }

    /// RFC 7692 §7.2.3.2: the second "Hello" refers back into the first; the server kept its
    /// window, as it may unless asked not to.
    @Test func theServersWindowIsKeptFromOneMessageToTheNext() async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [
                .send([compressedText([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00]), compressedText([0xF2, 0x00, 0x11, 0x00, 0x00])]),
                .awaitFrames(2), .send([.close(1000)]),
            ], responseFields: Self.agreed, options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string("Hello"), .string("Hello")])
        #expect(reading.ending == .normal)
        #expect(record.closeCode == 1000)
    }

    /// Uncompressed messages are still allowed once permessage-deflate is agreed; a compressed
    /// one in many stored-block fragments, 1 MiB, reads whole.
    @Test func uncompressedAndFragmentedCompressedMessagesAreRead() async throws {
        let large = binaryPayload(1 << 20)
        let deflated = DeflateBytes.stored(large)
        let fragments = stride(from: 0, to: deflated.count, by: 64 * 1024).map { start in
            WireFrame(
                fin: start + 64 * 1024 >= deflated.count, rsv: start == 0 ? 4 : 0,
                opcode: start == 0 ? WireFrame.binary : WireFrame.continuation,
                payload: Array(deflated[start..<min(deflated.count, start + 64 * 1024)]))
        }
        var reading = Reading()
        let record = try await conformanceCase(
            [.send([.text("plain")] + fragments), .awaitFrames(2), .send([.close(1000)])], responseFields: Self.agreed,
            options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        let readWhole = reading.messages == [.string("plain"), .data(Data(large))]
        #expect(readWhole, "read \(reading.messages.map(\.byteCount)) bytes")
        #expect(reading.ending == .normal)
        let echoes = record.frames.filter { !$0.isControl }.map(\.payload)
        let inflated = try await inflatedByZlib(echoes, sharedWindow: true)
        #expect(inflated.count == 2)
        #expect(inflated.first == Array("plain".utf8))
        let echoedWhole = inflated.last == large
        #expect(echoedWhole, "the echo inflates to \(inflated.last?.count ?? 0) bytes")
        #expect(record.closeCode == 1000)
    }

    /// An empty message: an empty stored block, or a fixed block with only its end.
    @Test(arguments: [[0x00], [0x02, 0x00]] as [[UInt8]]) func anEmptyCompressedMessageIsRead(payload: [UInt8]) async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [.send([compressedText(payload)]), .awaitFrames(1), .send([.close(1000)])], responseFields: Self.agreed,
            options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        #expect(reading.messages == [.string("")])
        #expect(reading.ending == .normal)
        #expect(record.closeCode == 1000)
    }

    // MARK: The client's window

    /// The client's two "Hello"s: with its window kept, the second is written against the first
    /// and comes out shorter; when the client offered `client_no_context_takeover`, or the
    /// server asked for it, each is compressed alone and the two are the same bytes. Python's
    /// zlib reads them back either way.
    @Test(arguments: WindowCase.allCases) func theClientKeepsItsWindowOnlyWhenAgreed(window: WindowCase) async throws {
        let record = try await conformanceCase(
            [.send([.text("Hello"), .text("Hello")]), .awaitFrames(2), .send([.close(1000)])],
            responseFields: [window.responseField], options: .patient(compression: window.offer)
        ) { socket, _ in
            _ = await socket.readToEnd()
        }
        let echoes = record.frames.filter { !$0.isControl }
        #expect(echoes.map(\.rsv) == [4, 4])
        let payloads = echoes.map(\.payload)
        try #require(payloads.count == 2)
        if window == .kept {
            #expect(payloads[1].count < payloads[0].count, "\(payloads)")
        } else {
            #expect(payloads[1] == payloads[0])
        }
        let inflated = try await inflatedByZlib(payloads, sharedWindow: window == .kept)
        #expect(inflated == [Array("Hello".utf8), Array("Hello".utf8)])
        #expect(record.closeCode == 1000)
    }

    // MARK: The limit

    /// `1 + 258 × 4` zero bytes: the limit exactly, then one reference more, past it.
    @Test(arguments: [4, 5]) func aMessageIsHeldToTheLimitOnceInflated(references: Int) async throws {
        let limit = 1 + 258 * 4
        let frame = WireFrame(rsv: 4, opcode: WireFrame.binary, payload: DeflateBytes.zeroBomb(references: references))
        var reading = Reading()
        let record = try await conformanceCase(
            [.send([frame]), .awaitFrames(1), .send([.close(1000)])], responseFields: Self.agreed,
            options: .patient(maximumMessageBytes: limit, compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        if references == 4 {
            #expect(reading.messages == [.data(Data(count: limit))])
            #expect(reading.ending == .normal)
            #expect(record.closeCode == 1000)
        } else {
            #expect(reading.messages.isEmpty)
            #expect(reading.ending == .failed(.dataLengthExceedsMaximum))
            #expect(record.closeCode == 1009)
        }
    }

    /// A bomb: 4 MiB of DEFLATE that inflate to 4 GiB of zeros, whole and in 64 KiB fragments.
    /// The client stops at the 16 MiB limit and closes with 1009; the process's peak memory
    /// grows by far less than the bomb (not checked under a sanitizer, whose own bookkeeping
    /// moves it).
    @Test(arguments: [false, true]) func aDeflateBombFailsWith1009WithoutMemoryGrowth(fragmented: Bool) async throws {
        let bomb = DeflateBytes.zeroBomb(references: (4 << 30) / 258)
        let frames =
            fragmented
            ? stride(from: 0, to: bomb.count, by: 64 * 1024).map { start in
                WireFrame(
                    fin: start + 64 * 1024 >= bomb.count, rsv: start == 0 ? 4 : 0,
                    opcode: start == 0 ? WireFrame.binary : WireFrame.continuation,
                    payload: Array(bomb[start..<min(bomb.count, start + 64 * 1024)]))
            }
            : [WireFrame(rsv: 4, opcode: WireFrame.binary, payload: bomb)]
        let peakBefore = try peakResidentBytes()
        var reading = Reading()
        let record = try await conformanceCase(
            [.send(frames)], responseFields: Self.agreed, options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        let growth = try peakResidentBytes() - peakBefore
        #expect(reading.messages.isEmpty)
        #expect(reading.ending == .failed(.dataLengthExceedsMaximum), "\(String(describing: reading.error))")
        #expect(record.closeCode == 1009)
        if !TestRun.isSanitized {
            // Inflating the bomb would take 4 GiB; the other tests running meanwhile take far
            // less than the margin.
            #expect(growth < 2 << 30, "the process's peak memory grew by \(growth) bytes")
        }
    }

    // MARK: Violations

    /// RFC 7692 §6.1: RSV1 is for a data message's first frame only.
    @Test(arguments: [WireFrame.ping, WireFrame.pong, WireFrame.close])
    func rsv1OnAControlFrameFailsWith1002(opcode: UInt8) async throws {
        let payload: [UInt8] = opcode == WireFrame.close ? [0x03, 0xE8] : Array("compressed?".utf8)
        try await failsWith(1002, [WireFrame(rsv: 4, opcode: opcode, payload: payload)])
    }

    @Test func rsv1OnAContinuationFrameFailsWith1002() async throws {
        let compressedContinuation = WireFrame(fin: true, rsv: 4, opcode: WireFrame.continuation, payload: [0xC9, 0xC9, 0x07, 0x00])
        try await failsWith(1002, [compressedText([0xF2, 0x48, 0xCD], fin: false), compressedContinuation])
    }

    /// permessage-deflate defines RSV1 only.
    @Test(arguments: [2, 1] as [UInt8]) func rsv2OrRsv3WithCompressionAgreedFailsWith1002(rsv: UInt8) async throws {
        try await failsWith(1002, [WireFrame(rsv: rsv, opcode: WireFrame.text, payload: Array("Hello".utf8))])
    }

    /// The server declined the offer (its 101 names no extension), then sent RSV1 anyway.
    @Test func rsv1AfterTheServerDeclinedFailsWith1002() async throws {
        try await failsWith(1002, [compressedText([0xF2, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00])], responseFields: [])
    }

    /// Bytes that are not DEFLATE (a reserved block type); this client fails such a message with
    /// 1002, as Python's websockets does.
    @Test func dataThatDoesNotInflateFailsWith1002() async throws {
        try await failsWith(1002, [compressedText([0xFF, 0xFF, 0xFF, 0xFF])])
    }

    /// The text is checked as UTF-8 once inflated.
    @Test func compressedTextThatIsNotUTF8FailsWith1007() async throws {
        try await failsWith(1007, [compressedText(DeflateBytes.stored(Array("κόσμε".utf8) + [0xED, 0xA0, 0x80]))])
    }

    // MARK: Helpers

    struct Example: Sendable, CustomTestStringConvertible {
        let name: String
        let frames: [WireFrame]

        init(_ name: String, _ frames: [WireFrame]) {
            self.name = name
            self.frames = frames
        }

        var testDescription: String { name }
    }

    enum WindowCase: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case kept
        case clientOffersNone
        case serverAsksNone

        var offer: WebSocket.Compression {
            self == .clientOffersNone ? WebSocket.Compression(clientContextTakeover: false) : .permessageDeflate
        }

        var responseField: String {
            self == .serverAsksNone
                ? "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover"
                : "Sec-WebSocket-Extensions: permessage-deflate"
        }

        var testDescription: String { rawValue }
    }

    private static func compressedText(_ payload: [UInt8], fin: Bool = true) -> WireFrame {
        WireFrame(fin: fin, rsv: 4, opcode: WireFrame.text, payload: payload)
    }

    private func compressedText(_ payload: [UInt8], fin: Bool = true) -> WireFrame {
        Self.compressedText(payload, fin: fin)
    }

    private func failsWith(
        _ code: UInt16, _ frames: [WireFrame], responseFields: [String] = CompressionConformanceTests.agreed,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [.send(frames)], responseFields: responseFields, options: .patient(compression: .permessageDeflate)
        ) { socket, _ in
            reading = await socket.readToEnd()
        }
        let error: URLError.Code = code == 1009 ? .dataLengthExceedsMaximum : .badServerResponse
        #expect(reading.messages.isEmpty, sourceLocation: sourceLocation)
        #expect(reading.ending == .failed(error), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.closeCode == code, sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
    }
}

/// `payloads`, each a permessage-deflate message as the client sent it, inflated by Python's
/// zlib (after the `00 00 FF FF` RFC 7692 §7.2.2 restores): with one window across them when
/// the client kept its own, a fresh one each otherwise.
private func inflatedByZlib(_ payloads: [[UInt8]], sharedWindow: Bool) async throws -> [[UInt8]] {
    try await offThePool {
        let python = try TLSTestFiles.tool("python3")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-inflate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.txt")
        let output = directory.appendingPathComponent("out.txt")
        try Data(payloads.map { $0.map { String(format: "%02x", $0) }.joined() + "\n" }.joined().utf8).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let script = """
            import sys, zlib
            window = zlib.decompressobj(-15)
            for line in open(sys.argv[2]):
                if sys.argv[1] == "fresh":
                    window = zlib.decompressobj(-15)
                print(window.decompress(bytes.fromhex(line.strip()) + b"\\x00\\x00\\xff\\xff").hex())
            """
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = try SpawnedProcess(
            executable: python.path, arguments: ["-c", script, sharedWindow ? "shared" : "fresh", input.path], standardOutput: handle)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw HTTPSTestServerError("zlib could not inflate the client's messages") }
        let text = try String(contentsOf: output, encoding: .utf8)
        func value(_ digit: UInt8) -> UInt8 { digit <= UInt8(ascii: "9") ? digit - UInt8(ascii: "0") : digit - UInt8(ascii: "a") + 10 }
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map { line in
            let digits = Array(line.utf8)
            return stride(from: 0, to: digits.count - 1, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
        }
    }
}

/// The most memory this process has had resident (`VmHWM` in /proc/self/status), in bytes.
private func peakResidentBytes() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
    let kilobytes = try #require(line.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { Int($0) })
    return kilobytes * 1024
}
#endif
