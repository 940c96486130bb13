import Testing
@testable import CourierCurl

@Suite struct WebSocketMessageAssemblerTests {
    private typealias Event = WebSocketMessageAssembler.Event

    /// The events `frames` complete, in order, or the first violation.
    private func events(_ frames: [WebSocketFrame], maximumMessageLength: Int = 1 << 20) -> Result<[Event], WebSocketError> {
        var assembler = WebSocketMessageAssembler(maximumMessageLength: maximumMessageLength)
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
}
