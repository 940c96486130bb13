import Testing
@testable import CourierCurl

/// The client's connection as the engine will drive it, without a socket: bytes in, actions out.
@Suite struct WebSocketConnectionStateTests {
    private typealias State = WebSocketConnectionState

    private func close(_ code: UInt16, _ reason: String = "") -> WebSocketFrame {
        WebSocketFrame(opcode: .close, payload: closePayload(code, reason))
    }

    // MARK: Open

    @Test func messagesPingsAndPongsWhileOpen() {
        let wire = serverFrame(.text, "Hello") + serverFrame(.ping, [1, 2]) + serverFrame(.pong, [3])
            + serverFrame(.binary, [4, 5])
        #expect(readActions(wire) == [
            .deliver(.text("Hello")),
            .sendPong(WebSocketFrame(opcode: .pong, payload: [1, 2])),
            .deliverPong([3]),
            .deliver(.binary([4, 5])),
        ])
    }

    @Test func aPingBetweenFragmentsIsAnsweredBeforeTheMessageIsWhole() {
        let wire = serverFrame(fin: false, .text, "Hel") + serverFrame(.ping) + serverFrame(.continuation, "lo")
        #expect(readActions(wire) == [.sendPong(WebSocketFrame(opcode: .pong)), .deliver(.text("Hello"))])
    }

    @Test func aByteAtATimeActsAsOnePiece() {
        let wire = serverFrame(fin: false, .binary, [1]) + serverFrame(.ping, [9]) + serverFrame(.continuation, [2])
            + serverFrame(.text, "κόσμε") + serverFrame(.close, closePayload(1000))
        var state = State()
        #expect(readActions(wire.map { [$0] }, in: &state) == readActions(wire))
        #expect(readActions(wire).count == 4)
    }

    // MARK: The server closes

    @Test func theServersCloseIsEchoedThenFinishes() {
        var state = State()
        let actions = readActions([serverFrame(.close, closePayload(1001, "restarting"))], in: &state)
        let status = WebSocketCloseStatus(code: .goingAway, reason: "restarting")
        #expect(actions == [.sendCloseEchoThenFinish(echo: close(1001), status: status)])
        #expect(!state.isOpen)
        #expect(state.send(.text("late")) == .refuse(.sendAfterClose))
        #expect(state.ping() == .refuse(.sendAfterClose))
        let secondClose = state.close()
        #expect(secondClose == .none)
        let end = state.connectionEnded()
        #expect(end == .close)
    }

    @Test func anEmptyCloseIsNoStatusAndIsEchoedEmpty() {
        #expect(readActions(serverFrame(.close)) == [
            .sendCloseEchoThenFinish(echo: WebSocketFrame(opcode: .close), status: WebSocketCloseStatus(code: .noStatusReceived))
        ])
    }

    @Test func bytesAfterTheServersCloseAreAViolationWithoutASecondClose() {
        let wire = serverFrame(.close, closePayload(1000)) + serverFrame(.text, "late")
        #expect(readActions(wire) == [
            .sendCloseEchoThenFinish(echo: close(1000), status: WebSocketCloseStatus(code: .normalClosure)),
            .fail(.bytesAfterClose),
        ])
    }

    @Test func theServerNotEndingTheConnectionAfterTheHandshakeIsClosedOn() {
        var state = State()
        _ = readActions([serverFrame(.close, closePayload(1000))], in: &state)
        let timeout = state.closeTimerFired()
        #expect(timeout == .close)
        let end = state.connectionEnded()
        #expect(end == .none)
    }

    // MARK: The client closes

    @Test func theClientsCloseIsAnsweredByTheServers() {
        var state = State()
        let firstClose = state.close(WebSocketCloseStatus(code: .normalClosure, reason: "done"))
        #expect(firstClose == .sendClose(close(1000, "done")))
        let secondClose = state.close()
        #expect(secondClose == .none)
        #expect(state.send(.binary([1])) == .refuse(.sendAfterClose))
        // Messages in flight still arrive; pings are no longer answered.
        let wire = serverFrame(.text, "in flight") + serverFrame(.ping) + serverFrame(.close, closePayload(1000))
        #expect(readActions([wire], in: &state) == [.deliver(.text("in flight")), .finish(WebSocketCloseStatus(code: .normalClosure))])
        let end = state.connectionEnded()
        #expect(end == .close)
    }

    @Test func aCloseWithoutACodeSendsAnEmptyPayload() {
        var state = State()
        let closing = state.close(WebSocketCloseStatus(code: .noStatusReceived))
        #expect(closing == .sendClose(WebSocketFrame(opcode: .close)))
    }

    @Test func aServerThatNeverAnswersTheCloseTimesOut() {
        var state = State()
        let staleTimeout = state.closeTimerFired()
        #expect(staleTimeout == .none)
        _ = state.close()
        let timeout = state.closeTimerFired()
        #expect(timeout == .fail(.closeTimedOut))
        let end = state.connectionEnded()
        #expect(end == .none)
    }

    @Test func aViolationAfterTheClientsCloseSendsNoSecondClose() {
        var state = State()
        _ = state.close()
        #expect(readActions([serverFrame(opcode: 0x3)], in: &state) == [.fail(.unknownOpcode(3))])
        let end = state.connectionEnded()
        #expect(end == .none)
    }

    @Test func closesTheClientMayNotSendAreRefused() {
        var state = State()
        let refusals = [
            state.close(WebSocketCloseStatus(code: .abnormalClosure)),
            state.close(WebSocketCloseStatus(code: .init(1004))),
            state.close(WebSocketCloseStatus(code: .noStatusReceived, reason: "why")),
            state.close(WebSocketCloseStatus(code: .normalClosure, reason: String(repeating: "x", count: 124))),
        ]
        #expect(refusals == [
            .refuse(.closeCodeNotSendable(.abnormalClosure)),
            .refuse(.closeCodeNotSendable(.init(1004))),
            .refuse(.closeCodeNotSendable(.noStatusReceived)),
            .refuse(.closeReasonTooLong(124)),
        ])
        #expect(state.isOpen)
    }

    // MARK: Sending

    @Test func sendingWhileOpen() {
        var state = State()
        #expect(state.send(.text("hi")) == .send(WebSocketFrame(opcode: .text, payload: Array("hi".utf8))))
        #expect(state.ping([1]) == .send(WebSocketFrame(opcode: .ping, payload: [1])))
        #expect(state.pong() == .send(WebSocketFrame(opcode: .pong)))
        #expect(state.ping(.init(repeating: 0, count: 126)) == .refuse(.controlPayloadTooLong(126)))
    }

    // MARK: The connection ends

    @Test func anEndBeforeTheCloseHandshakeFails() {
        var state = State()
        let end = state.connectionEnded()
        #expect(end == .fail(.connectionEndedWithoutClose))
        #expect(state.send(.text("x")) == .refuse(.sendAfterClose))
        let secondEnd = state.connectionEnded()
        #expect(secondEnd == .none)
        state.received(serverFrame(.text, "x"))
        let read = state.nextReadAction()
        #expect(read == .needMoreBytes)
    }

    // MARK: Violations

    /// Bytes the server sends, the error they are, and the code the client closes with.
    struct Violation: Sendable, CustomTestStringConvertible {
        var bytes: [UInt8]
        var error: WebSocketError
        var code: UInt16
        /// The permessage-deflate agreed, if any.
        var deflate: WebSocketDeflateParameters?

        init(_ bytes: [UInt8], _ error: WebSocketError, _ code: UInt16, deflate: WebSocketDeflateParameters? = nil) {
            self.bytes = bytes
            self.error = error
            self.code = code
            self.deflate = deflate
        }

        var testDescription: String { "\(error) (\(code))\(deflate == nil ? "" : " with permessage-deflate")" }
    }

    private static let violations: [Violation] = [
        .init([0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58], .maskedFrame, 1002),
        .init(serverFrame(reservedBits: 0x40, opcode: 1, payload: [0x61]), .reservedBitsSet(0x40), 1002),
        .init(serverFrame(reservedBits: 0x10, opcode: 2), .reservedBitsSet(0x10), 1002),
        .init(serverFrame(opcode: 0xB), .unknownOpcode(0xB), 1002),
        .init(serverFrame(opcode: 0x3), .unknownOpcode(0x3), 1002),
        .init(serverFrame(.ping, .init(repeating: 0, count: 126)), .controlFrameTooLong(.ping, length: 126), 1002),
        .init(serverFrame(fin: false, .ping), .fragmentedControlFrame(.ping), 1002),
        .init([0x82, 0x7F, 0x80, 0, 0, 0, 0, 0, 0, 0], .lengthWithTopBitSet, 1002),
        .init(serverFrame(opcode: 2, payload: [1], lengthBytes: 2), .nonMinimalLength(1, lengthBytes: 2), 1002),
        .init(serverFrame(.continuation, "lo"), .continuationWithoutMessage, 1002),
        .init(serverFrame(fin: false, .text, "Hel") + serverFrame(.binary, [1]), .messageInsideFragmentedMessage(.binary), 1002),
        .init(serverFrame(.close, [0x03]), .closePayloadOfOneByte, 1002),
        .init(serverFrame(.close, closePayload(1006)), .closeCodeNotAllowed(1006), 1002),
        .init(serverFrame(.close, closePayload(2999)), .closeCodeNotAllowed(2999), 1002),
        .init(serverFrame(.text, [0xC0, 0x80]), .invalidUTF8(.message), 1007),
        .init(serverFrame(fin: false, .text, [0xCE]) + serverFrame(.continuation, [0x41]), .invalidUTF8(.message), 1007),
        .init(serverFrame(.text, [0x61, 0xF0, 0x9F]), .textEndsInsideCharacter, 1007),
        .init(serverFrame(.close, closePayload(1000) + [0xFF]), .invalidUTF8(.closeReason), 1007),
        .init([0x82, 0x7F, 0, 0, 0, 0, 0x80, 0, 0, 0], .messageTooLarge(length: 1 << 31, limit: 16 << 20, fragmented: false), 1009),
        .init(serverFrame(fin: false, .binary, .init(repeating: 0, count: 70_000)) + [0x80, 0x7F, 0, 0, 0, 0, 0, 0xFF, 0x00, 0x00],
         .messageTooLarge(length: 70_000 + 0xFF_0000, limit: 16 << 20, fragmented: true), 1009),
        // With permessage-deflate agreed: RSV1 only on a data message's first frame, RSV2 and
        // RSV3 never, and compressed data that inflates, to UTF-8 when it is text.
        .init(compressedServerFrame(.ping, [1]), .compressionBitOnControlFrame(.ping), 1002, deflate: .init()),
        .init(compressedServerFrame(.close, closePayload(1000)), .compressionBitOnControlFrame(.close), 1002, deflate: .init()),
        .init(compressedServerFrame(fin: false, .text, [0xF2]) + compressedServerFrame(.continuation, [0x48]),
         .compressionBitOnContinuationFrame, 1002, deflate: .init()),
        .init(serverFrame(reservedBits: 0x20, opcode: 1, payload: [0x61]), .reservedBitsSet(0x20), 1002, deflate: .init()),
        .init(compressedServerFrame(.binary, [0xFF, 0xFF]), .invalidCompressedData("invalid block type"), 1002, deflate: .init()),
        .init(compressedServerFrame(.binary, [0xF2, 0x48]), .invalidCompressedData("the message ends inside a DEFLATE block"), 1002,
         deflate: .init()),
        // "a" and C0 80, an overlong NUL, compressed.
        .init(compressedServerFrame(.text, [0x4A, 0x3C, 0xD0, 0x00, 0x00]), .invalidUTF8(.message), 1007, deflate: .init()),
    ]

    @Test(arguments: violations)
    func aViolationClosesWithItsCodeAndFails(violation: Violation) throws {
        let (error, code) = (violation.error, violation.code)
        var state = State(deflate: violation.deflate)
        let actions = readActions([violation.bytes], in: &state)
        #expect(actions.count == 1)
        guard case .sendCloseThenFail(let frame, let failure)? = actions.first else {
            Issue.record("expected a close and a failure, got \(actions)")
            return
        }
        #expect(failure == error)
        #expect(failure.closeCode?.rawValue == code)
        #expect(closeCode(of: frame) == code)
        // The close frame is one the server can read: a valid code and a reason that fits.
        #expect(frame.payload.count <= 125)
        let status = try WebSocketCloseStatus(closePayload: frame.payload)
        #expect(!status.reason.isEmpty)
        // Nothing more is read or sent.
        state.received(serverFrame(.text, "more"))
        let read = state.nextReadAction()
        #expect(read == .needMoreBytes)
        #expect(state.send(.text("x")) == .refuse(.sendAfterClose))
        let end = state.connectionEnded()
        #expect(end == .none)
    }

    /// Frames and garbage, fed in random pieces, act as they do fed whole: every violation is
    /// found at the same point whatever the split.
    @Test func anySplitOfAnyBytesActsAsOnePiece() {
        var generator = SeededGenerator(seed: 7)
        let frames = [
            serverFrame(.text, "Hello"), serverFrame(fin: false, .binary, [1, 2]), serverFrame(.continuation, [3]),
            serverFrame(fin: false, .text, [0xE2, 0x82]), serverFrame(.continuation, [0xAC]), serverFrame(.ping, [9]),
            serverFrame(.pong), serverFrame(.binary, .init(repeating: 0, count: 70)), serverFrame(.close, closePayload(1000)),
        ]
        var failures = 0
        for _ in 0..<500 {
            var wire: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                if Int.random(in: 0..<4, using: &generator) > 0 {
                    wire += frames.randomElement(using: &generator) ?? []
                } else {
                    wire += (0..<Int.random(in: 1...6, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                }
            }
            let whole = readActions(wire, maximumMessageLength: 64)
            let cuts = (0..<Int.random(in: 1...12, using: &generator)).map { _ in Int.random(in: 0...wire.count, using: &generator) }
            var state = State(maximumMessageLength: 64)
            #expect(readActions(pieces(of: wire, cutAt: cuts.sorted()), in: &state) == whole, "\(wire) cut at \(cuts.sorted())")
            var byteAtATime = State(maximumMessageLength: 64)
            #expect(readActions(wire.map { [$0] }, in: &byteAtATime) == whole, "\(wire)")
            if case .sendCloseThenFail? = whole.last { failures += 1 }
        }
        // Both clean runs and violations were exercised.
        #expect(failures > 50 && failures < 450)
    }

    @Test func whatCameBeforeAViolationIsDelivered() {
        let wire = serverFrame(.text, "first") + serverFrame(opcode: 0xF)
        #expect(readActions(wire).first == .deliver(.text("first")))
        #expect(readActions(wire).count == 2)
    }

    @Test func theLimitIsTheOneGiven() {
        let wire = serverFrame(.binary, .init(repeating: 1, count: 100))
        #expect(readActions(wire, maximumMessageLength: 100) == [.deliver(.binary(.init(repeating: 1, count: 100)))])
        guard case .sendCloseThenFail(_, let error)? = readActions(wire, maximumMessageLength: 99).first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .messageTooLarge(length: 100, limit: 99, fragmented: false))
        #expect(error.description == "the server sent a frame of 100 bytes, over the 99-byte message limit")
    }

    // MARK: permessage-deflate

    @Test func compressedMessagesAreDeliveredInflated() {
        let hello = compressedHello
        let wire = compressedServerFrame(.text, hello) + serverFrame(.binary, [1, 2])
            + compressedServerFrame(fin: false, .binary, Array(hello[..<2])) + serverFrame(.ping, [9])
            + serverFrame(.continuation, Array(hello[2...])) + compressedServerFrame(.text, compressedHelloAgain)
        #expect(readActions(wire, deflate: .init()) == [
            .deliver(.text("Hello")), .deliver(.binary([1, 2])), .sendPong(WebSocketFrame(opcode: .pong, payload: [9])),
            .deliver(.binary(Array("Hello".utf8))), .deliver(.text("Hello")),
        ])
    }

    @Test func withoutDeflateAgreedRSV1IsStillAViolation() {
        guard case .sendCloseThenFail(let frame, let error)? = readActions(compressedServerFrame(.text, compressedHello)).first
        else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == .reservedBitsSet(0x40))
        #expect(closeCode(of: frame) == 1002)
    }

    /// 64 KiB of zeros in well under 1 KiB: within the limit as received, refused (1009) once
    /// inflating passes it.
    @Test func aCompressedMessageOverTheLimitClosesWith1009() throws {
        var deflater = WebSocketDeflater()
        let bomb = try deflater.compress([UInt8](repeating: 0, count: 64 * 1024))
        #expect(bomb.count < 1024)
        let actions = readActions(compressedServerFrame(.binary, bomb), maximumMessageLength: 1024, deflate: .init())
        guard case .sendCloseThenFail(let frame, let error)? = actions.first, actions.count == 1 else {
            Issue.record("expected a failure, got \(actions)")
            return
        }
        #expect(error == .compressedMessageTooLarge(limit: 1024))
        #expect(closeCode(of: frame) == 1009)
        #expect(try WebSocketCloseStatus(closePayload: frame.payload).reason
            == "the server sent a compressed message that inflates to more than 1 KiB")
    }

    @Test func sentMessagesAreCompressedAndControlFramesNever() {
        var state = State(deflate: .init())
        let hello = WebSocketFrame(opcode: .text, payload: compressedHello, isCompressed: true)
        #expect(state.send(.text("Hello")) == .send(hello))
        #expect(state.send(.binary(Array("Hello".utf8)))
            == .send(WebSocketFrame(opcode: .binary, payload: compressedHelloAgain, isCompressed: true)))
        #expect(state.ping([1]) == .send(WebSocketFrame(opcode: .ping, payload: [1])))
        #expect(state.pong() == .send(WebSocketFrame(opcode: .pong)))
        #expect(state.close() == .sendClose(close(1000)))
        #expect(state.send(.text("late")) == .refuse(.sendAfterClose))
    }

    @Test func withoutClientContextTakeoverEachSentMessageStandsAlone() {
        var state = State(deflate: .init(clientNoContextTakeover: true))
        let hello = WebSocketFrame(opcode: .text, payload: compressedHello, isCompressed: true)
        #expect(state.send(.text("Hello")) == .send(hello))
        #expect(state.send(.text("Hello")) == .send(hello))
    }

    /// What the client sends compressed, fragmented and masked, a client-side reader with the
    /// same agreement reads back: the codec is its own inverse.
    @Test func whatTheClientSendsReadsBack() throws {
        var sender = State(deflate: .init())
        var encoder = WebSocketFrameEncoder(generator: SeededGenerator(seed: 9))
        var generator = SeededGenerator(seed: 10)
        var wire: [UInt8] = []
        var messages: [WebSocketMessage] = []
        for length in [0, 10, 1000, 40_000] {
            let message = WebSocketMessage.text(String(decoding: sentences(byteCount: length, using: &generator), as: UTF8.self))
            messages.append(message)
            guard case .send(let frame) = sender.send(message) else {
                Issue.record("the message was refused")
                return
            }
            wire += encoder.encode(fragmentsOf: frame, maximumFramePayloadLength: 100)
        }
        let plain = try #require(unmasked(wire))
        #expect(readActions(plain, deflate: .init()) == messages.map { .deliver($0) })
    }
}
