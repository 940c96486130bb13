import Testing
@testable import CourierCurl

@Suite struct WebSocketFrameDecoderTests {
    private let hello = Array("Hello".utf8)

    private func frames(_ bytes: [UInt8], maximumMessageLength: Int = 1 << 24) -> Result<[WebSocketFrame], WebSocketError> {
        decodeFrames([bytes], maximumMessageLength: maximumMessageLength)
    }

    // MARK: RFC 6455 §5.7

    @Test func anUnmaskedHello() {
        #expect(frames([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == .success([WebSocketFrame(opcode: .text, payload: hello)]))
    }

    @Test func aMaskedHelloFromTheServerIsAProtocolError() {
        #expect(frames([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]) == .failure(.maskedFrame))
        // Refused from its second byte, before the key and payload.
        #expect(decodeFrames([[0x81, 0x85]]) == .failure(.maskedFrame))
    }

    @Test func aFragmentedHello() {
        let expected = [
            WebSocketFrame(isFinal: false, opcode: .text, payload: Array("Hel".utf8)),
            WebSocketFrame(opcode: .continuation, payload: Array("lo".utf8)),
        ]
        #expect(frames([0x01, 0x03, 0x48, 0x65, 0x6C, 0x80, 0x02, 0x6C, 0x6F]) == .success(expected))
    }

    @Test func anUnmaskedPing() {
        #expect(frames([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]) == .success([WebSocketFrame(opcode: .ping, payload: hello)]))
    }

    @Test func binaryOf256BytesHasA16BitLength() {
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        #expect(frames([0x82, 0x7E, 0x01, 0x00] + payload) == .success([WebSocketFrame(opcode: .binary, payload: payload)]))
    }

    @Test func binaryOf64KiBHasA64BitLength() {
        let payload = (0..<65536).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let header: [UInt8] = [0x82, 0x7F, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00]
        #expect(frames(header + payload) == .success([WebSocketFrame(opcode: .binary, payload: payload)]))
    }

    // MARK: Lengths

    @Test func theLengthsAtTheEdgesOfEachForm() {
        for length in [0, 1, 125, 126, 127, 0xFFFF, 0x10000, 0x10001] {
            let payload = [UInt8](repeating: 0x5A, count: length)
            #expect(frames(serverFrame(.binary, payload)) == .success([WebSocketFrame(opcode: .binary, payload: payload)]), "\(length)")
        }
    }

    @Test func aLengthInMoreBytesThanItNeedsIsRefused() {
        #expect(frames(serverFrame(opcode: 2, payload: [1, 2, 3], lengthBytes: 2)) == .failure(.nonMinimalLength(3, lengthBytes: 2)))
        #expect(frames(serverFrame(opcode: 2, payload: [UInt8](repeating: 0, count: 125), lengthBytes: 2))
            == .failure(.nonMinimalLength(125, lengthBytes: 2)))
        #expect(frames(serverFrame(opcode: 2, payload: [UInt8](repeating: 0, count: 126), lengthBytes: 8))
            == .failure(.nonMinimalLength(126, lengthBytes: 8)))
        #expect(frames(serverFrame(opcode: 2, payload: [UInt8](repeating: 0, count: 0xFFFF), lengthBytes: 8))
            == .failure(.nonMinimalLength(0xFFFF, lengthBytes: 8)))
    }

    @Test func a64BitLengthWithItsTopBitSetIsRefused() {
        #expect(decodeFrames([[0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0]]) == .failure(.lengthWithTopBitSet))
        #expect(decodeFrames([[0x82, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]]) == .failure(.lengthWithTopBitSet))
    }

    // MARK: Header violations

    @Test func reservedBitsAreRefusedFromTheFirstByte() {
        for bits: UInt8 in [0x40, 0x20, 0x10, 0x70] {
            #expect(decodeFrames([[0x80 | bits | 0x1]]) == .failure(.reservedBitsSet(bits)))
        }
    }

    @Test func rsv1MarksACompressedFirstFrameOnceDeflateWasAgreed() {
        let wire = serverFrame(reservedBits: 0x40, opcode: 1, payload: [1, 2])
            + serverFrame(fin: false, reservedBits: 0x40, opcode: 2, payload: [3]) + serverFrame(opcode: 0, payload: [4])
        #expect(decodeFrames([wire], acceptsCompressedFrames: true) == .success([
            WebSocketFrame(opcode: .text, payload: [1, 2], isCompressed: true),
            WebSocketFrame(isFinal: false, opcode: .binary, payload: [3], isCompressed: true),
            WebSocketFrame(opcode: .continuation, payload: [4]),
        ]))
        #expect(decodeFrames([wire]) == .failure(.reservedBitsSet(0x40)))
    }

    @Test func rsv1OnAControlOrContinuationFrameIsRefusedFromTheFirstByte() {
        for opcode in [WebSocketOpcode.ping, .pong, .close] {
            #expect(decodeFrames([[0xC0 | opcode.rawValue]], acceptsCompressedFrames: true)
                == .failure(.compressionBitOnControlFrame(opcode)))
        }
        #expect(decodeFrames([[0x40]], acceptsCompressedFrames: true) == .failure(.compressionBitOnContinuationFrame))
        // RSV2 and RSV3 stay reserved, alone or with RSV1.
        for bits: UInt8 in [0x20, 0x10, 0x60, 0x70] {
            #expect(decodeFrames([[0x80 | bits | 0x1]], acceptsCompressedFrames: true) == .failure(.reservedBitsSet(bits)))
        }
        #expect(WebSocketError.compressionBitOnControlFrame(.ping).description
            == "the server set the compression bit (RSV1) on a ping frame; control frames are never compressed")
    }

    @Test func reservedOpcodesAreRefused() {
        for opcode: UInt8 in [0x3, 0x4, 0x5, 0x6, 0x7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            #expect(frames(serverFrame(opcode: opcode)) == .failure(.unknownOpcode(opcode)))
        }
    }

    @Test func aFragmentedControlFrameIsRefused() {
        #expect(decodeFrames([[0x09]]) == .failure(.fragmentedControlFrame(.ping)))
        #expect(frames(serverFrame(fin: false, .close, [0x03, 0xE8])) == .failure(.fragmentedControlFrame(.close)))
        #expect(frames(serverFrame(fin: false, .pong)) == .failure(.fragmentedControlFrame(.pong)))
    }

    @Test func aControlFrameOverItsLimitIsRefused() {
        let longest = [UInt8](repeating: 0, count: 125)
        #expect(frames(serverFrame(.ping, longest)) == .success([WebSocketFrame(opcode: .ping, payload: longest)]))
        #expect(frames(serverFrame(.ping, [UInt8](repeating: 0, count: 126))) == .failure(.controlFrameTooLong(.ping, length: 126)))
        // Refused from the header: the payload never arrives.
        #expect(decodeFrames([[0x88, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0]]) == .failure(.controlFrameTooLong(.close, length: 65536)))
    }

    // MARK: The message limit

    @Test func aFrameOverTheLimitIsRefusedFromItsHeaderAlone() {
        var decoder = WebSocketFrameDecoder()
        // 2 GiB declared; only the ten header bytes ever arrive.
        decoder.append([0x82, 0x7F, 0, 0, 0, 0, 0x80, 0, 0, 0])
        #expect(throws: WebSocketError.messageTooLarge(length: 1 << 31, limit: 16 << 20, fragmented: false)) {
            try decoder.nextFrame(maximumMessageLength: 16 << 20)
        }
        #expect(
            WebSocketError.messageTooLarge(length: 1 << 31, limit: 16 << 20, fragmented: false).description
                == "the server sent a frame of 2 GiB, over the 16 MiB message limit")
    }

    @Test func theLimitHoldsForTheMessageSoFar() {
        var decoder = WebSocketFrameDecoder()
        decoder.append(serverFrame(fin: false, .continuation, [UInt8](repeating: 0, count: 60)))
        #expect(throws: WebSocketError.messageTooLarge(length: 100, limit: 80, fragmented: true)) {
            try decoder.nextFrame(messageLengthSoFar: 40, maximumMessageLength: 80)
        }
        #expect(
            WebSocketError.messageTooLarge(length: 100, limit: 80, fragmented: true).description
                == "the server sent a fragmented message of at least 100 bytes, over the 80-byte message limit")
        var atTheLimit = WebSocketFrameDecoder()
        atTheLimit.append(serverFrame(.continuation, [UInt8](repeating: 0, count: 40)))
        #expect(throws: Never.self) { try atTheLimit.nextFrame(messageLengthSoFar: 40, maximumMessageLength: 80) }
    }

    @Test func controlFramesAreNotCountedAgainstTheMessageLimit() {
        #expect(frames(serverFrame(.ping, hello), maximumMessageLength: 0) == .success([WebSocketFrame(opcode: .ping, payload: hello)]))
        #expect(frames(serverFrame(.text, hello), maximumMessageLength: 4)
            == .failure(.messageTooLarge(length: 5, limit: 4, fragmented: false)))
    }

    // MARK: Pieces

    @Test func aFrameSplitAtEveryByteComesOutWhole() {
        let bytes = serverFrame(.binary, (0..<300).map { UInt8(truncatingIfNeeded: $0) })
        for cut in 0...bytes.count {
            #expect(decodeFrames([Array(bytes[..<cut]), Array(bytes[cut...])]) == frames(bytes), "cut at \(cut)")
        }
    }

    /// A mix of frames, fed whole, a byte at a time, and in random pieces, decodes the same.
    @Test func anyWayOfSplittingTheBytesDecodesTheSameFrames() throws {
        let wire = serverFrame(fin: false, .text, "Hel") + serverFrame(.ping, hello) + serverFrame(.continuation, "lo")
            + serverFrame(.binary, (0..<256).map { UInt8(truncatingIfNeeded: $0) }) + serverFrame(.pong)
            + serverFrame(.binary, [UInt8](repeating: 7, count: 70_000)) + serverFrame(.text, "")
            + serverFrame(.close, closePayload(1000, "bye"))
        let whole = try frames(wire).get()
        #expect(whole.count == 8)
        #expect(decodeFrames(wire.map { [$0] }) == .success(whole))
        var generator = SeededGenerator(seed: 1)
        for _ in 0..<200 {
            let cutCount = Int.random(in: 1...20, using: &generator)
            let cuts = (0..<cutCount).map { _ in Int.random(in: 0...wire.count, using: &generator) }.sorted()
            #expect(decodeFrames(pieces(of: wire, cutAt: cuts)) == .success(whole), "cuts \(cuts)")
        }
    }

    @Test func readBytesAreDropped() throws {
        var decoder = WebSocketFrameDecoder()
        for _ in 0..<1000 {
            decoder.append(serverFrame(.binary, [UInt8](repeating: 1, count: 100)))
            decoder.append(serverFrame(.binary, [UInt8](repeating: 1, count: 100))[..<50])
            let first = try decoder.nextFrame(maximumMessageLength: 1000)
            #expect(first != nil)
            // The rest of the second frame: then both are read.
            decoder.append(serverFrame(.binary, [UInt8](repeating: 1, count: 100))[50...])
            let second = try decoder.nextFrame(maximumMessageLength: 1000)
            let none = try decoder.nextFrame(maximumMessageLength: 1000)
            #expect(second != nil)
            #expect(none == nil)
        }
        #expect(decoder.bufferedByteCount == 0)
    }
}
