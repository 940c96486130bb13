import Testing
@testable import CourierCurl

@Suite struct WebSocketFrameEncoderTests {
    /// The key of RFC 6455 §5.7's masked examples, 37 fa 21 3d.
    private func rfcEncoder() -> WebSocketFrameEncoder<RepeatingGenerator> {
        WebSocketFrameEncoder(generator: RepeatingGenerator(value: 0x37FA_213D))
    }

    @Test func theMaskedHelloOfRFC6455() {
        var encoder = rfcEncoder()
        let bytes = encoder.encode(WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
        #expect(bytes == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test func theMaskedPongOfRFC6455() {
        var encoder = rfcEncoder()
        let bytes = encoder.encode(WebSocketFrame(opcode: .pong, payload: Array("Hello".utf8)))
        #expect(bytes == [0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test func theTestHelperUnmasksTheRFCExample() {
        #expect(unmasked([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == [0x81, 0x05] + Array("Hello".utf8))
    }

    @Test func eachLengthTakesTheShortestForm() {
        var encoder = rfcEncoder()
        let key: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
        let expectedHeaders: [(length: Int, header: [UInt8])] = [
            (0, [0x82, 0x80]),
            (125, [0x82, 0xFD]),
            (256, [0x82, 0xFE, 0x01, 0x00]),
            (0xFFFF, [0x82, 0xFE, 0xFF, 0xFF]),
            (65536, [0x82, 0xFF, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]),
        ]
        for (length, header) in expectedHeaders {
            let bytes = encoder.encode(WebSocketFrame(opcode: .binary, payload: .init(repeating: 0, count: length)))
            #expect(Array(bytes.prefix(header.count + 4)) == header + key, "\(length)")
            #expect(bytes.count == header.count + 4 + length)
        }
        let fragment = encoder.encode(WebSocketFrame(isFinal: false, opcode: .text, payload: []))
        #expect(fragment[0] == 0x01)
    }

    @Test func everyFrameTakesAFreshKeyFromTheGenerator() {
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 9))
        var expected = SeededGenerator(seed: 9)
        for _ in 0..<4 {
            let key: UInt32 = expected.next()
            let bytes = encoder.encode(WebSocketFrame(opcode: .ping))
            #expect(Array(bytes[2...]) == [UInt8(key >> 24), UInt8((key >> 16) & 0xFF), UInt8((key >> 8) & 0xFF), UInt8(key & 0xFF)])
        }
        var system = WebSocketFrameEncoder()
        let keys = Set((0..<8).map { _ in system.encode(WebSocketFrame(opcode: .ping))[2...] })
        #expect(keys.count > 1)
    }

    @Test func maskingTwiceGivesTheBytesBack() {
        var generator = SeededGenerator(seed: 3)
        for length in [0, 1, 3, 4, 5, 127, 4096] {
            let original = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let key = UInt32.random(in: 1...UInt32.max, using: &generator)
            var bytes = original[...]
            WebSocketFrameEncoder<SeededGenerator>.mask(&bytes, with: key)
            if length > 0 { #expect(bytes != original[...]) }
            WebSocketFrameEncoder<SeededGenerator>.mask(&bytes, with: key)
            #expect(Array(bytes) == original)
        }
    }

    @Test func aSliceIsMaskedFromItsOwnFirstByte() {
        var bytes: [UInt8] = [9, 9, 0, 0, 0, 0, 0]
        WebSocketFrameEncoder<SeededGenerator>.mask(&bytes[2...], with: 0x0102_0304)
        #expect(bytes == [9, 9, 1, 2, 3, 4, 1])
    }

    /// Random frames encoded, unmasked by the test's own parser, and decoded give the frames
    /// back; unmasked, they are byte for byte what a server would write.
    @Test func encodedFramesDecodeBack() throws {
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 42))
        var generator = SeededGenerator(seed: 43)
        let opcodes: [WebSocketOpcode] = [.text, .binary, .continuation, .ping, .pong, .close]
        for _ in 0..<100 {
            let opcode = opcodes.randomElement(using: &generator) ?? .binary
            let lengths = opcode.isControl ? [0, 1, 125] : [0, 1, 125, 126, 200, 0xFFFF, 0x10000, 70_000]
            let length = lengths.randomElement(using: &generator) ?? 0
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let frame = WebSocketFrame(isFinal: opcode.isControl || Bool.random(using: &generator), opcode: opcode, payload: payload)
            let wire = encoder.encode(frame)
            let plain = try #require(unmasked(wire))
            #expect(plain == serverFrame(fin: frame.isFinal, opcode, payload))
            #expect(decodeFrames([plain]) == .success([frame]))
        }
    }

    @Test func aLargeMessageGoesInFragments() throws {
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 5))
        let text = String(repeating: "κόσμε ", count: 10)  // 110 bytes
        let wire = encoder.encode(.text(text), maximumFramePayloadLength: 25)
        let frames = try decodeFrames([try #require(unmasked(wire))]).get()
        #expect(frames.map(\.opcode) == [.text, .continuation, .continuation, .continuation, .continuation])
        #expect(frames.map(\.isFinal) == [false, false, false, false, true])
        #expect(frames.map(\.payload.count) == [25, 25, 25, 25, 10])
        var assembler = WebSocketMessageAssembler(maximumMessageLength: 1000)
        var events: [WebSocketMessageAssembler.Event] = []
        for frame in frames {
            if let event = try assembler.receive(frame) { events.append(event) }
        }
        #expect(events == [.message(.text(text))])
    }

    @Test func aCompressedMessageSetsRSV1OnItsFirstFragmentOnly() throws {
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 6))
        let compressed = WebSocketFrame(opcode: .binary, payload: Array(0..<30), isCompressed: true)
        let wire = encoder.encode(fragmentsOf: compressed, maximumFramePayloadLength: 12)
        let frames = try decodeFrames([try #require(unmasked(wire))], acceptsCompressedFrames: true).get()
        #expect(frames.map(\.isCompressed) == [true, false, false])
        #expect(frames.map(\.opcode) == [.binary, .continuation, .continuation])
        #expect(frames.flatMap(\.payload) == Array(0..<30))
        #expect(encoder.encode(WebSocketFrame(opcode: .text, payload: [0], isCompressed: true)).first == 0xC1)
    }

    @Test func anEmptyMessageIsOneFrame() throws {
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 5))
        let wire = encoder.encode(.binary([]), maximumFramePayloadLength: 10)
        #expect(decodeFrames([try #require(unmasked(wire))]) == .success([WebSocketFrame(opcode: .binary)]))
    }
}
