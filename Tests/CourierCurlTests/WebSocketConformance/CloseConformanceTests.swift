#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

/// Autobahn|Testsuite's section 7, close handling: the server's close is answered with a close
/// carrying its code, and `messages` ends normally for 1000, 1001 and no code, with a
/// ``WebSocketCloseError`` for any other; a close frame that breaks RFC 6455 §5.5.1 or §7.4
/// (one byte, a code never sent, a reason too long) fails with 1002; nothing the server sends
/// after its close is read or answered. The client's own close waits for the server's answer,
/// bounded by ``WebSocket/Options/closeTimeout``.
@Suite(.timeLimit(.minutes(5))) struct CloseConformanceTests {
    /// Autobahn 7.7.x: every code a close frame may carry.
    static let validCodes: [UInt16] = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]

    /// Autobahn 7.9.x, and 1005, 1006 and 1015, which report and are never sent (§7.4.1).
    static let invalidCodes: [UInt16] = [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]

    @Test(arguments: validCodes) func theServersCloseIsAnsweredWithItsCode(code: UInt16) async throws {
        try await serverCloses(code: code, reason: "")
    }

    @Test(arguments: [1000, 1001, 3000, 4999] as [UInt16]) func theServersCloseReasonIsReported(code: UInt16) async throws {
        try await serverCloses(code: code, reason: "closing, κόσμε")
    }

    /// Autobahn 7.3.5: the longest reason a close frame holds.
    @Test func aReasonOf123BytesIsAccepted() async throws {
        try await serverCloses(code: 1000, reason: String(decoding: asciiPayload(123), as: UTF8.self))
    }

    /// Autobahn 7.3.1: a close frame with no payload is a close without a code, reported as
    /// 1005 and answered with an empty close.
    @Test func anEmptyCloseEndsNormallyWith1005() async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        let record = try await conformanceCase([.send([.close(payload: [])])]) { socket, _ in
            reading = await socket.readToEnd()
            closeCode = socket.closeCode
            closeReason = socket.closeReason
        }
        #expect(reading.ending == .normal)
        #expect(closeCode == .noStatusReceived)
        #expect(closeReason == "")
        #expect(record.closes.map(\.payload) == [[]])
    }

    /// Autobahn 7.3.2: one byte is a code cut short.
    @Test func aClosePayloadOfOneByteFailsWith1002() async throws {
        try await closeFailsWith1002(.close(payload: [0x03]))
    }

    @Test(arguments: invalidCodes) func anInvalidCloseCodeFailsWith1002(code: UInt16) async throws {
        try await closeFailsWith1002(.close(code))
    }

    /// Autobahn 7.3.6: a 124-byte reason makes a 126-byte close frame, over a control frame's limit.
    @Test func aReasonOf124BytesFailsWith1002() async throws {
        try await closeFailsWith1002(.close(1000, String(decoding: asciiPayload(124), as: UTF8.self)))
    }

    // MARK: What follows the server's close

    /// Autobahn 7.1.1: a message, then the close: the message is read, then the close answered.
    @Test func aMessageBeforeTheCloseIsRead() async throws {
        try await serverCloses([.text("Hello World!"), .close(1000)], read: [.string("Hello World!")])
    }

    /// Autobahn 7.1.2–7.1.4: a second close, a ping, a message after the close: none is read or
    /// answered.
    @Test(arguments: [WireFrame.close(1000), .ping(Array("after close".utf8)), .text("after close")])
    func whatFollowsTheCloseIsIgnored(after: WireFrame) async throws {
        try await serverCloses([.close(1000), after], read: [])
    }

    /// Autobahn 7.1.5: a fragmented message cut by the close is never read.
    @Test func aMessageCutByTheCloseIsDropped() async throws {
        try await serverCloses([.text("fragment1", fin: false), .close(1000), .continuation("fragment2", fin: true)], read: [])
    }

    /// Autobahn 7.1.6: a 256 KiB message, the close, then a ping: the message is read, the
    /// ping is not answered.
    @Test func aLargeMessageBeforeTheCloseIsReadAndAPingAfterItIsNotAnswered() async throws {
        let text = String(decoding: asciiPayload(256 * 1024), as: UTF8.self)
        try await serverCloses([.text(text), .close(1000), .ping(Array("after close".utf8))], read: [.string(text)])
    }

    /// The connection ends without a close frame: reading fails, and there is no close to answer.
    @Test func theConnectionEndingWithoutACloseFails() async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        let record = try await conformanceCase([.send([.text("last words")]), .endConnection]) { socket, _ in
            reading = await socket.readToEnd(echoing: false)
            closeCode = socket.closeCode
        }
        #expect(reading.messages == [.string("last words")])
        #expect(reading.ending == .failed(.networkConnectionLost))
        #expect(closeCode == nil)
        #expect(record.frames.isEmpty)
    }

    // MARK: The client's close

    /// The client closes, the server answers with the same code: `close` returns, `messages`
    /// ends normally, and the close code is the server's.
    @Test(arguments: [(1000, "bye"), (1001, ""), (3001, "custom close"), (4999, "κόσμε")] as [(UInt16, String)])
    func theClientsCloseReturnsOnceTheServerAnswers(code: UInt16, reason: String) async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        let record = try await conformanceCase([]) { socket, _ in
            try await socket.close(WebSocket.CloseCode(rawValue: code), reason: reason)
            reading = await socket.readToEnd()
            closeCode = socket.closeCode
            let clients = WebSocketCloseError(
                code: WebSocket.CloseCode(rawValue: code), reason: reason, closedByServer: false, url: socket.url)
            await #expect(throws: clients) { try await socket.send(.string("after the close")) }
        }
        #expect(reading.ending == .normal)
        #expect(closeCode == WebSocket.CloseCode(rawValue: code))
        #expect(record.closeCode == code)
        #expect(record.closes.first?.closeReason == reason)
    }

    /// The server answers the client's close with a code of its own: the socket reports the
    /// server's code, and what can no longer be done fails with the client's close, its code and
    /// reason, since the client closed first.
    @Test func aCloseAnsweredWithAnotherCodeStaysTheClients() async throws {
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        var reading = Reading()
        let record = try await conformanceCase(
            [.awaitClose, .send([.close(1001, "server going away")]), .endConnection], answersClose: false
        ) { socket, _ in
            try await socket.close(WebSocket.CloseCode(rawValue: 4001), reason: "client done")
            closeCode = socket.closeCode
            closeReason = socket.closeReason
            let clients = WebSocketCloseError(
                code: WebSocket.CloseCode(rawValue: 4001), reason: "client done", closedByServer: false, url: socket.url)
            await #expect(throws: clients) { try await socket.send(.string("after the close")) }
            await #expect(throws: clients) { try await socket.ping() }
            reading = await socket.readToEnd()
        }
        #expect(closeCode == .goingAway)
        #expect(closeReason == "server going away")
        #expect(reading.ending == .normal)
        #expect(record.closeCode == 4001)
    }

    /// Messages the server sends before it answers the client's close stay readable after
    /// `close` returned.
    @Test func messagesBeforeTheServersAnswerStayReadable() async throws {
        var reading = Reading()
        let record = try await conformanceCase(
            [.awaitClose, .send([.text("late 1"), .binary([1, 2, 3]), .close(1000)]), .endConnection], answersClose: false
        ) { socket, _ in
            try await socket.close()
            reading = await socket.readToEnd(echoing: false)
        }
        #expect(reading.messages == [.string("late 1"), .data(Data([1, 2, 3]))])
        #expect(reading.ending == .normal)
        #expect(record.closeCode == 1000)
    }

    /// Both sides close at once: each close frame is the answer to the other, `close` returns,
    /// and the client sent one close frame only.
    @Test(arguments: [1000, 4000] as [UInt16]) func closesThatCrossEndTheConnection(serverCode: UInt16) async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send([.close(serverCode, "server closes")])]) { socket, _ in
            try await socket.close(.goingAway, reason: "client closes")
            reading = await socket.readToEnd()
        }
        // Whichever close came first, the reader is told the connection ended as it should.
        let serversClose = Ending.closed(WebSocket.CloseCode(rawValue: serverCode), reason: "server closes", byServer: true)
        #expect(reading.ending == .normal || reading.ending == serversClose)
        #expect(record.closes.count == 1)
        #expect(record.closeCode == 1001 || record.closeCode == serverCode)
    }

    /// The server answers the client's close and then keeps the connection open, where it
    /// should end it first (RFC 6455 §7.1.1): the client ends it after the close timeout.
    @Test func aServerThatKeepsTheConnectionAfterTheHandshakeIsLeft() async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        let record = try await conformanceCase(
            [.send([.close(1000)])], answersClose: false, options: WebSocket.Options(closeTimeout: 0.2)
        ) { socket, _ in
            reading = await socket.readToEnd()
            closeCode = socket.closeCode
        }
        #expect(reading.ending == .normal)
        #expect(closeCode == .normalClosure)
        #expect(record.closeCode == 1000)
    }

    /// A ping that comes after the client's close is not answered: after its close frame the
    /// client sends nothing (RFC 6455 §5.5.1).
    @Test func aPingAfterTheClientsCloseIsNotAnswered() async throws {
        let record = try await conformanceCase(
            [.awaitClose, .send([.ping(Array("too late".utf8)), .close(1000)]), .endConnection], answersClose: false
        ) { socket, _ in
            try await socket.close()
        }
        #expect(record.frames.map(\.opcode) == [WireFrame.close])
        #expect(record.closeCode == 1000)
    }

    /// A close while a large message (``largeMessageLength``) is being written goes after the
    /// message, never inside it; a message not yet begun is refused instead.
    @Test func aCloseDuringALargeSendGoesAfterTheMessage() async throws {
        let payload = binaryPayload(largeMessageLength)
        var sendError: (any Error)?
        let record = try await conformanceCase([]) { socket, _ in
            async let sent: Void = socket.send(.data(Data(payload)))
            try await socket.close(reason: "after the large one")
            do {
                try await sent
            } catch {
                sendError = error
            }
        }
        #expect(record.frames.last?.opcode == WireFrame.close)
        #expect(record.closes.first?.closeReason == "after the large one")
        if let sendError {
            #expect(sendError is WebSocketCloseError, "\(sendError)")
            #expect(record.messages.isEmpty)
        } else {
            let sentWhole = record.messages.map(\.payload) == [payload]
            #expect(sentWhole, "the server read \(record.messages)")
        }
    }

    /// A reader waiting for a message when the client closes sees the end, not an error.
    @Test func aReaderWaitingWhenTheClientClosesEndsNormally() async throws {
        let record = try await conformanceCase([]) { socket, _ in
            async let reading = socket.readToEnd()
            _ = try await socket.ping()  // the reader is waiting by the time the pong came
            try await socket.close()
            #expect(await reading.ending == .normal)
        }
        #expect(record.closeCode == 1000)
    }

    /// A reason past 123 bytes is cut at a character boundary, so the frame stays valid.
    @Test func aLongReasonIsCutToFitTheFrame() async throws {
        let reason = String(repeating: "κ", count: 100)  // 200 bytes
        let record = try await conformanceCase([]) { socket, _ in
            try await socket.close(reason: reason)
        }
        let sent = try #require(record.closes.first?.closeReason)
        #expect(record.closeCode == 1000)
        #expect(sent.utf8.count == 122)
        #expect(reason.hasPrefix(sent))
    }

    /// Codes that are reported, never sent, are refused before anything goes.
    @Test(arguments: [1005, 1006, 1015, 999, 5000] as [UInt16]) func aCodeThatIsNeverSentIsRefused(code: UInt16) async throws {
        let record = try await conformanceCase([]) { socket, _ in
            await #expect(throws: RequestError.self) { try await socket.close(WebSocket.CloseCode(rawValue: code)) }
            try await socket.close()
        }
        #expect(record.closes.count == 1)
        #expect(record.closeCode == 1000)
    }

    /// A server that never answers the client's close: `close` fails with `.timedOut` once the
    /// close timeout passed, and the client ends the connection.
    @Test func aCloseTheServerNeverAnswersTimesOut() async throws {
        var closeError: (any Error)?
        var reading = Reading()
        let record = try await conformanceCase([], answersClose: false, options: WebSocket.Options(closeTimeout: 0.2)) { socket, _ in
            do {
                try await socket.close(reason: "anyone there?")
            } catch {
                closeError = error
            }
            reading = await socket.readToEnd()
        }
        #expect((closeError as? URLError)?.code == .timedOut, "\(String(describing: closeError))")
        #expect(reading.ending == .failed(.timedOut))
        #expect(record.closeCode == 1000)
        #expect(record.closes.first?.closeReason == "anyone there?")
    }

    // MARK: Helpers

    /// The server closes with `code` and `reason`: the client answers with the code, and
    /// `messages` ends as the code says.
    private func serverCloses(code: UInt16, reason: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        var closeReason: String?
        let record = try await conformanceCase([.send([.close(code, reason)])]) { socket, _ in
            reading = await socket.readToEnd()
            closeCode = socket.closeCode
            closeReason = socket.closeReason
            // Closing what the server closed returns at once.
            try await socket.close()
        }
        let expected = WebSocket.CloseCode(rawValue: code)
        let ending: Ending = expected.isNormal ? .normal : .closed(expected, reason: reason, byServer: true)
        #expect(reading.ending == ending, sourceLocation: sourceLocation)
        #expect(closeCode == expected, sourceLocation: sourceLocation)
        #expect(closeReason == reason, sourceLocation: sourceLocation)
        #expect(record.closes.count == 1, sourceLocation: sourceLocation)
        #expect(record.closeCode == code, sourceLocation: sourceLocation)
    }

    /// The server sends `frames`, a close with 1000 among them: the client reads `read`,
    /// answers the close once, and nothing else.
    private func serverCloses(
        _ frames: [WireFrame], read: [WebSocket.Message], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        var reading = Reading()
        let record = try await conformanceCase([.send(frames)]) { socket, _ in
            reading = await socket.readToEnd(echoing: false)
        }
        let readAsSent = reading.messages == read
        #expect(readAsSent, "read \(reading.messages.map(\.byteCount)) bytes", sourceLocation: sourceLocation)
        #expect(reading.ending == .normal, "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(record.frames.map(\.opcode) == [WireFrame.close], sourceLocation: sourceLocation)
        #expect(record.closeCode == 1000, sourceLocation: sourceLocation)
    }

    private func closeFailsWith1002(_ close: WireFrame, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        var reading = Reading()
        var closeCode: WebSocket.CloseCode?
        let record = try await conformanceCase([.send([close])]) { socket, _ in
            reading = await socket.readToEnd()
            closeCode = socket.closeCode
        }
        #expect(reading.ending == .failed(.badServerResponse), "\(String(describing: reading.error))", sourceLocation: sourceLocation)
        #expect(closeCode == nil, sourceLocation: sourceLocation)
        #expect(record.closeCode == 1002, sourceLocation: sourceLocation)
        #expect(record.closes.count == 1, sourceLocation: sourceLocation)
    }
}
#endif
