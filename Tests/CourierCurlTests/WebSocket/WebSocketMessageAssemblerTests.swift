import Testing
@testable import CourierCurl

@Suite struct WebSocketMessageAssemblerTests {
    private typealias Event = WebSocketMessageAssembler.Event

    /// The events `frames` complete, in order, or the first violation.
    private func events(
        _ frames: [WebSocketFrame], maximumMessageLength: Int = 1 << 20, inflater: WebSocketInflater? = nil
    ) -> Result<[Event], WebSocketError> {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: maximumMessageLength, inflater: inflater)
        var events: [Event] = []
        do throws(WebSocketError) {
            for frame in frames {
                if let event = try assembler.receive(frame) { events.append(event) }
            }
        } catch {
            return .failure(error)
        }
        return .success(events)
    }

    private func text(_ string: String, final: Bool = true, continuation: Bool = false) -> WebSocketFrame {
        WebSocketFrame(isFinal: final, opcode: continuation ? .continuation : .text, payload: Array(string.utf8))
    }

    private func bytes(_ bytes: [UInt8], final: Bool = true, opcode: WebSocketOpcode = .continuation) -> WebSocketFrame {
        WebSocketFrame(isFinal: final, opcode: opcode, payload: bytes)
    }

    @Test func wholeMessagesComeOutAsTheyAre() {
        #expect(events([text("Hello"), bytes([1, 2, 3], opcode: .binary), text("")])
            == .success([.message(.text("Hello")), .message(.binary([1, 2, 3])), .message(.text(""))]))
    }

    @Test func fragmentsJoinWithControlFramesBetweenThem() {
        let frames = [
            text("Hel", final: false),
            WebSocketFrame(opcode: .ping, payload: [1]),
            text("", final: false, continuation: true),
            WebSocketFrame(opcode: .pong, payload: [2]),
            text("lo", continuation: true),
        ]
        #expect(events(frames) == .success([.ping([1]), .pong([2]), .message(.text("Hello"))]))
        #expect(events([bytes([1], final: false, opcode: .binary), bytes([]), ])
            == .success([.message(.binary([1]))]))
    }

    @Test func aCloseBetweenFragmentsIsReported() {
        #expect(events([text("Hel", final: false), WebSocketFrame(opcode: .close, payload: closePayload(1001))])
            == .success([.close(WebSocketCloseStatus(code: .goingAway))]))
    }

    @Test func aContinuationWithoutAMessageIsAViolation() {
        #expect(events([text("lo", continuation: true)]) == .failure(.continuationWithoutMessage))
        #expect(events([text("Hello"), text("lo", continuation: true)]) == .failure(.continuationWithoutMessage))
    }

    @Test func aNewMessageInsideAFragmentedOneIsAViolation() {
        #expect(events([text("Hel", final: false), text("lo")]) == .failure(.messageInsideFragmentedMessage(.text)))
        #expect(events([text("Hel", final: false), bytes([1], opcode: .binary)]) == .failure(.messageInsideFragmentedMessage(.binary)))
    }

    @Test func aCharacterSplitBetweenFragmentsIsValid() {
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        for cut in 0...3 {
            let frames = [
                bytes(Array(euro[..<cut]), final: false, opcode: .text),
                bytes(Array(euro[cut...])),
            ]
            #expect(events(frames) == .success([.message(.text("€"))]), "cut at \(cut)")
        }
    }

    @Test func invalidTextFailsAtTheFragmentThatHasIt() {
        // The second fragment is bad; the third never needs to arrive.
        let frames = [text("ok", final: false), bytes([0xED, 0xA0, 0x80], final: false)]
        #expect(events(frames) == .failure(.invalidUTF8(.message)))
        #expect(events([bytes([0xC0, 0x80], opcode: .text)]) == .failure(.invalidUTF8(.message)))
    }

    @Test func textThatEndsInsideACharacterIsInvalid() {
        #expect(events([bytes([0x61, 0xE2, 0x82], opcode: .text)]) == .failure(.textEndsInsideCharacter))
        #expect(events([bytes([0xE2], final: false, opcode: .text), bytes([0x82])]) == .failure(.textEndsInsideCharacter))
        #expect(WebSocketError.textEndsInsideCharacter.closeCode == .invalidFramePayloadData)
    }

    @Test func binaryIsNotCheckedAsText() {
        #expect(events([bytes([0xFF, 0xC0], opcode: .binary)]) == .success([.message(.binary([0xFF, 0xC0]))]))
    }

    @Test func theLimitHoldsForTheFragmentsTogether() {
        let frames = [bytes([1, 2, 3], final: false, opcode: .binary), bytes([4, 5], final: false), bytes([6])]
        #expect(events(frames, maximumMessageLength: 6) == .success([.message(.binary([1, 2, 3, 4, 5, 6]))]))
        #expect(events(frames, maximumMessageLength: 5) == .failure(.messageTooLarge(length: 6, limit: 5, fragmented: true)))
        #expect(events([bytes([1, 2, 3], opcode: .binary)], maximumMessageLength: 2)
            == .failure(.messageTooLarge(length: 3, limit: 2, fragmented: false)))
    }

    @Test func theLengthSoFarIsWhatTheDecoderNeeds() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: 100)
        #expect(assembler.messageLengthSoFar == 0)
        _ = try assembler.receive(bytes([1, 2, 3], final: false, opcode: .binary))
        _ = try assembler.receive(WebSocketFrame(opcode: .ping, payload: [1, 2, 3, 4]))
        #expect(assembler.messageLengthSoFar == 3)
        _ = try assembler.receive(bytes([4]))
        #expect(assembler.messageLengthSoFar == 0)
    }

    // MARK: permessage-deflate

    private func compressed(_ payload: [UInt8], final: Bool = true, opcode: WebSocketOpcode = .text) -> WebSocketFrame {
        WebSocketFrame(isFinal: final, opcode: opcode, payload: payload, isCompressed: opcode != .continuation)
    }

    @Test func compressedMessagesAreInflatedBesideUncompressedOnes() {
        let frames = [
            compressed(compressedHello),
            text("plain"),
            compressed([0xF2, 0x48, 0xCD], final: false, opcode: .binary),
            WebSocketFrame(opcode: .ping, payload: [1]),
            compressed([0xC9, 0xC9, 0x07, 0x00], opcode: .continuation),
            // Refers back into the first message: the plain one between left the window alone.
            compressed(compressedHelloAgain),
        ]
        #expect(events(frames, inflater: WebSocketInflater()) == .success([
            .message(.text("Hello")), .message(.text("plain")), .ping([1]), .message(.binary(Array("Hello".utf8))),
            .message(.text("Hello")),
        ]))
    }

    @Test func aCompressedFrameWithoutDeflateOrOnTheWrongFrameIsRefused() {
        #expect(events([compressed(compressedHello)]) == .failure(.reservedBitsSet(0x40)))
        let onContinuation = [compressed([0xF2], final: false), WebSocketFrame(opcode: .continuation, payload: [0x48], isCompressed: true)]
        #expect(events(onContinuation, inflater: WebSocketInflater()) == .failure(.compressionBitOnContinuationFrame))
        #expect(events([WebSocketFrame(opcode: .pong, isCompressed: true)], inflater: WebSocketInflater())
            == .failure(.compressionBitOnControlFrame(.pong)))
    }

    @Test func inflatedTextIsCheckedAsUTF8() throws {
        var deflater = WebSocketDeflater()
        let invalid = try deflater.compress([0x61, 0xC0, 0x80])
        #expect(events([compressed(invalid)], inflater: WebSocketInflater()) == .failure(.invalidUTF8(.message)))
        var other = WebSocketDeflater()
        let cut = try other.compress([0x61, 0xE2, 0x82])
        #expect(events([compressed(cut)], inflater: WebSocketInflater()) == .failure(.textEndsInsideCharacter))
    }

    @Test func theLimitHoldsForTheCompressedBytesAndForWhatTheyInflateTo() throws {
        var deflater = WebSocketDeflater()
        let zeros = try deflater.compress([UInt8](repeating: 0, count: 1000))
        #expect(zeros.count < 100)
        #expect(events([compressed(zeros, opcode: .binary)], maximumMessageLength: 1000, inflater: WebSocketInflater())
            == .success([.message(.binary([UInt8](repeating: 0, count: 1000)))]))
        #expect(events([compressed(zeros, opcode: .binary)], maximumMessageLength: 999, inflater: WebSocketInflater())
            == .failure(.compressedMessageTooLarge(limit: 999)))
        #expect(events([compressed(zeros, opcode: .binary)], maximumMessageLength: zeros.count - 1, inflater: WebSocketInflater())
            == .failure(.messageTooLarge(length: UInt64(zeros.count), limit: zeros.count - 1, fragmented: false)))
    }

    @Test func theLengthSoFarOfACompressedMessageIsWhatCameCompressed() throws {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: 100, inflater: WebSocketInflater())
        _ = try assembler.receive(compressed([0xF2, 0x48, 0xCD], final: false))
        #expect(assembler.messageLengthSoFar == 3)
        #expect(try assembler.receive(compressed([0xC9, 0xC9, 0x07, 0x00], opcode: .continuation)) == .message(.text("Hello")))
        #expect(assembler.messageLengthSoFar == 0)
    }
}
