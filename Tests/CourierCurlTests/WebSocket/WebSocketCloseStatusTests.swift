import Testing
@testable import CourierCurl

@Suite struct WebSocketCloseStatusTests {
    /// Autobahn 7.7.x, and the codes IANA registered since RFC 6455.
    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] as [UInt16])
    func codesAllowedOnTheWire(code: UInt16) throws {
        #expect(WebSocketCloseCode(code).isAllowedOnTheWire)
        #expect(try WebSocketCloseStatus(closePayload: closePayload(code, "ok")) == WebSocketCloseStatus(code: .init(code), reason: "ok"))
    }

    /// Autobahn 7.9.x: reserved, never on the wire, undefined, or out of range.
    @Test(arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func codesNotAllowedOnTheWire(code: UInt16) {
        #expect(!WebSocketCloseCode(code).isAllowedOnTheWire)
        #expect(throws: WebSocketError.closeCodeNotAllowed(code)) { try WebSocketCloseStatus(closePayload: closePayload(code)) }
    }

    @Test func anEmptyPayloadIsNoStatus() throws {
        #expect(try WebSocketCloseStatus(closePayload: []) == WebSocketCloseStatus(code: .noStatusReceived))
        #expect(WebSocketCloseStatus(code: .noStatusReceived).closePayload == [])
    }

    @Test func aPayloadOfOneByteIsAViolation() {
        #expect(throws: WebSocketError.closePayloadOfOneByte) { try WebSocketCloseStatus(closePayload: [0x03]) }
    }

    @Test func theReasonMustBeUTF8() {
        #expect(throws: WebSocketError.invalidUTF8(.closeReason)) {
            try WebSocketCloseStatus(closePayload: closePayload(1000) + [0xCE, 0xBA, 0xED, 0xA0, 0x80])
        }
        #expect(throws: WebSocketError.invalidUTF8(.closeReason)) {
            try WebSocketCloseStatus(closePayload: closePayload(1000) + [0xE2, 0x82])
        }
        #expect(WebSocketError.invalidUTF8(.closeReason).closeCode == .invalidFramePayloadData)
    }

    @Test func thePayloadIsTheCodeThenTheReason() throws {
        let status = WebSocketCloseStatus(code: .goingAway, reason: "κόσμε")
        #expect(status.closePayload == [0x03, 0xE9] + Array("κόσμε".utf8))
        #expect(try WebSocketCloseStatus(closePayload: status.closePayload) == status)
    }

    @Test func aLongReasonIsCutAtACharacterToFit() {
        let status = WebSocketCloseStatus(code: .protocolError, reason: String(repeating: "a", count: 122) + "€€")
        let cut = status.truncatingReason()
        #expect(cut.reason == String(repeating: "a", count: 122))
        let exact = WebSocketCloseStatus(code: .protocolError, reason: String(repeating: "a", count: 120) + "€€")
        #expect(exact.truncatingReason().reason == String(repeating: "a", count: 120) + "€")
        let fits = WebSocketCloseStatus(code: .protocolError, reason: String(repeating: "b", count: 123))
        #expect(fits.truncatingReason() == fits)
    }

    @Test func codesDescribeThemselves() {
        #expect(WebSocketCloseCode.messageTooBig.description == "1009 (message too big)")
        #expect(WebSocketCloseCode(4001).description == "4001")
        #expect(WebSocketCloseStatus(code: .normalClosure, reason: "bye").description == "1000 (normal closure): bye")
    }
}
