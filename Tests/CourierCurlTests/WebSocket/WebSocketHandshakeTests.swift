import Courier
import CourierWebSocket
import Testing
@testable import CourierCurl

@Suite struct WebSocketHandshakeTests {
    private let key = "dGhlIHNhbXBsZSBub25jZQ=="
    private let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    private var goodFields: [(String, String)] {
        [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)]
    }

    /// The subprotocol the server chose, when it chose one.
    private func check(
        status: Int = 101, _ fields: [(String, String)], protocols: [String] = []
    ) throws(WebSocketHandshakeError) -> String? {
        try WebSocketHandshake.checkResponse(
            statusCode: status, headerFields: HeaderFields(fields.map { HeaderField(name: $0.0, value: $0.1) }),
            key: key, protocols: protocols
        ).subprotocol
    }

    @Test func theAcceptValueOfRFC6455Section1_3() {
        #expect(WebSocketHandshake.acceptValue(forKey: key) == accept)
    }

    @Test func aKeyIsSixteenRandomBytesInBase64() {
        var generator = RepeatingGenerator(value: 0x0011_2233_4455_6677)
        let key = WebSocketHandshake.makeKey(using: &generator)
        #expect(key == "ABEiM0RVZncAESIzRFVmdw==")
        var system = SystemRandomNumberGenerator()
        let first = WebSocketHandshake.makeKey(using: &system)
        let second = WebSocketHandshake.makeKey(using: &system)
        #expect(first.count == 24 && first.hasSuffix("=="))
        #expect(first != second)
    }

    @Test func theRequestFieldsNameTheUpgradeKeyVersionAndProtocols() throws {
        let fields = try WebSocketHandshake.requestHeaderFields(key: key, protocols: ["chat", "superchat"])
        #expect(fields.map(\.name) == ["Upgrade", "Connection", "Sec-WebSocket-Key", "Sec-WebSocket-Version", "Sec-WebSocket-Protocol"])
        #expect(fields.map(\.value) == ["websocket", "Upgrade", key, "13", "chat, superchat"])
        #expect(try WebSocketHandshake.requestHeaderFields(key: key).count == 4)
    }

    @Test func subprotocolsMustBeDistinctTokens() {
        #expect(throws: WebSocketHandshakeError.protocolNotAToken("a b")) {
            try WebSocketHandshake.requestHeaderFields(key: key, protocols: ["a b"])
        }
        #expect(throws: WebSocketHandshakeError.protocolNotAToken("")) {
            try WebSocketHandshake.requestHeaderFields(key: key, protocols: [""])
        }
        #expect(throws: WebSocketHandshakeError.protocolRepeated("chat")) {
            try WebSocketHandshake.requestHeaderFields(key: key, protocols: ["chat", "chat"])
        }
    }

    @Test func aGoodAnswerIsAcceptedWhateverTheCaseOfItsTokens() throws {
        #expect(try check(goodFields) == nil)
        let otherCases = [("upgrade", "WebSocket"), ("connection", "keep-alive, UPGRADE"), ("sec-websocket-accept", " \(accept) ")]
        #expect(try check(otherCases) == nil)
    }

    @Test func theChosenSubprotocolIsReturnedWhenOffered() throws {
        #expect(try check(goodFields + [("Sec-WebSocket-Protocol", "chat")], protocols: ["superchat", "chat"]) == "chat")
        #expect(throws: WebSocketHandshakeError.protocolNotOffered("chat")) {
            try check(goodFields + [("Sec-WebSocket-Protocol", "chat")])
        }
        #expect(throws: WebSocketHandshakeError.protocolNotOffered("chat, superchat")) {
            try check(goodFields + [("Sec-WebSocket-Protocol", "chat, superchat")], protocols: ["chat", "superchat"])
        }
    }

    @Test func badAnswersAreRefusedWithWhatWasWrong() {
        #expect(throws: WebSocketHandshakeError.notSwitchingProtocols(statusCode: 200)) { try check(status: 200, goodFields) }
        #expect(throws: WebSocketHandshakeError.upgradeNotWebSocket(nil)) {
            try check([("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)])
        }
        #expect(throws: WebSocketHandshakeError.upgradeNotWebSocket("h2c")) {
            try check([("Upgrade", "h2c"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", accept)])
        }
        #expect(throws: WebSocketHandshakeError.connectionNotUpgrade("close")) {
            try check([("Upgrade", "websocket"), ("Connection", "close"), ("Sec-WebSocket-Accept", accept)])
        }
        let expected = WebSocketHandshakeError.acceptMismatch(expected: accept, received: "x3JJHMbDL1EzLkh9GBhXDw==")
        #expect(throws: expected) {
            try check([("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", "x3JJHMbDL1EzLkh9GBhXDw==")])
        }
        #expect(throws: WebSocketHandshakeError.acceptMismatch(expected: accept, received: nil)) {
            try check([("Upgrade", "websocket"), ("Connection", "Upgrade")])
        }
        #expect(throws: WebSocketHandshakeError.extensionNotOffered("permessage-deflate")) {
            try check(goodFields + [("Sec-WebSocket-Extensions", "permessage-deflate")])
        }
        #expect(String(describing: expected).contains("\"\(accept)\""))
    }
}
