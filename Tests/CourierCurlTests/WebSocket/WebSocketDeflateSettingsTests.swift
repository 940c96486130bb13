import Courier
import Testing
@testable import CourierCurl

/// The offer the client makes and what it accepts back (RFC 7692 §5, §7.1).
@Suite struct WebSocketDeflateSettingsTests {
    private typealias Settings = WebSocketDeflateSettings
    private typealias Agreed = WebSocketDeflateParameters

    private let key = "dGhlIHNhbXBsZSBub25jZQ=="
    private let accept = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="

    /// What the handshake check agrees to when the 101 carries `extensions`.
    private func agree(_ extensions: String?, offering settings: Settings? = Settings()) throws(WebSocketHandshakeError) -> Agreed? {
        var fields = [
            HeaderField(name: "Upgrade", value: "websocket"), HeaderField(name: "Connection", value: "Upgrade"),
            HeaderField(name: "Sec-WebSocket-Accept", value: accept),
        ]
        if let extensions { fields.append(HeaderField(name: "Sec-WebSocket-Extensions", value: extensions)) }
        return try WebSocketHandshake.checkResponse(
            statusCode: 101, headerFields: HeaderFields(fields), key: key, deflate: settings
        ).deflate
    }

    // MARK: The offer

    @Test func theDefaultOfferLetsTheServerChooseTheClientWindow() throws {
        #expect(try Settings().offer() == "permessage-deflate; client_max_window_bits")
    }

    @Test func everySettingIsOffered() throws {
        let settings = Settings(
            clientNoContextTakeover: true, serverNoContextTakeover: true, clientMaxWindowBits: 9, serverMaxWindowBits: 10)
        let offer = "permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=10; "
            + "client_max_window_bits=9"
        #expect(try settings.offer() == offer)
    }

    @Test func theOfferGoesInTheUpgradeRequestOnlyWhenAsked() throws {
        let offered = try WebSocketHandshake.requestHeaderFields(key: key, deflate: Settings(serverMaxWindowBits: 12))
        let offer = "permessage-deflate; server_max_window_bits=12; client_max_window_bits"
        #expect(offered.last == HeaderField(name: "Sec-WebSocket-Extensions", value: offer))
        let plain = try WebSocketHandshake.requestHeaderFields(key: key)
        #expect(!plain.contains { $0.name == "Sec-WebSocket-Extensions" })
    }

    @Test(arguments: [(7, 15), (16, 15), (15, 7), (15, 0)])
    func windowsOutsideEightToFifteenAreNotOffered(server: Int, client: Int) {
        let settings = Settings(clientMaxWindowBits: client, serverMaxWindowBits: server)
        let parameter = server == 15 ? "client_max_window_bits" : "server_max_window_bits"
        #expect(throws: WebSocketHandshakeError.deflateWindowBitsOutOfRange(parameter: parameter, value: server == 15 ? client : server)) {
            try WebSocketHandshake.requestHeaderFields(key: key, deflate: settings)
        }
    }

    // MARK: What the client accepts

    @Test func aServerThatDeclinesLeavesMessagesUncompressed() throws {
        #expect(try agree(nil) == nil)
        #expect(try agree("") == nil)
        #expect(try agree(" , ") == nil)
    }

    @Test func aBareAcceptanceAgreesTheLargestWindowsWithContextKept() throws {
        #expect(try agree("permessage-deflate") == Agreed())
        #expect(try agree("Permessage-Deflate") == Agreed())
    }

    @Test func theServerMayAddContextTakeoverAndWindowLimitsUnasked() throws {
        #expect(try agree("permessage-deflate; server_no_context_takeover") == Agreed(serverNoContextTakeover: true))
        #expect(try agree("permessage-deflate; client_no_context_takeover") == Agreed(clientNoContextTakeover: true))
        #expect(try agree("permessage-deflate; server_max_window_bits=9") == Agreed(serverMaxWindowBits: 9))
        #expect(try agree("permessage-deflate; client_max_window_bits=8") == Agreed(clientMaxWindowBits: 8))
        #expect(try agree(#"permessage-deflate; client_max_window_bits="12""#) == Agreed(clientMaxWindowBits: 12))
        #expect(try agree("permessage-deflate;SERVER_MAX_WINDOW_BITS=10") == Agreed(serverMaxWindowBits: 10))
    }

    @Test func whatTheClientOfferedHoldsWhenTheServerSaysNothingOfIt() throws {
        // The client keeps its own word on its window and its context.
        let settings = Settings(clientNoContextTakeover: true, clientMaxWindowBits: 10)
        #expect(try agree("permessage-deflate", offering: settings) == Agreed(clientNoContextTakeover: true, clientMaxWindowBits: 10))
        #expect(try agree("permessage-deflate; client_max_window_bits=9", offering: settings)
            == Agreed(clientNoContextTakeover: true, clientMaxWindowBits: 9))
    }

    @Test func whatTheClientAskedOfTheServerIsAgreed() throws {
        let settings = Settings(serverNoContextTakeover: true, serverMaxWindowBits: 10)
        let agreed = try agree("permessage-deflate; server_no_context_takeover; server_max_window_bits=10", offering: settings)
        #expect(agreed == Agreed(serverNoContextTakeover: true, serverMaxWindowBits: 10))
        let smaller = try agree("permessage-deflate; server_no_context_takeover; server_max_window_bits=8", offering: settings)
        #expect(smaller == Agreed(serverNoContextTakeover: true, serverMaxWindowBits: 8))
    }

    // MARK: What the client refuses

    @Test func anExtensionTheClientDidNotOfferIsRefused() {
        #expect(throws: WebSocketHandshakeError.extensionNotOffered("permessage-deflate")) {
            try agree("permessage-deflate", offering: nil)
        }
        #expect(throws: WebSocketHandshakeError.extensionNotOffered("x-webkit-deflate-frame; no_context_takeover")) {
            try agree("permessage-deflate, x-webkit-deflate-frame; no_context_takeover")
        }
    }

    @Test func permessageDeflateTwiceIsRefused() {
        #expect(throws: WebSocketHandshakeError.extensionRepeated("permessage-deflate")) {
            try agree("permessage-deflate; server_max_window_bits=10, permessage-deflate")
        }
    }

    @Test func aValueThatIsNotAListIsRefused() {
        #expect(throws: WebSocketHandshakeError.extensionsMalformed("permessage-deflate; =15")) {
            try agree(" permessage-deflate; =15")
        }
    }

    @Test(arguments: [
        ("permessage-deflate; x-unknown", WebSocketHandshakeError.deflateParameterUnknown("x-unknown")),
        ("permessage-deflate; no_context_takeover", .deflateParameterUnknown("no_context_takeover")),
        ("permessage-deflate; server_no_context_takeover; server_no_context_takeover",
         .deflateParameterRepeated("server_no_context_takeover")),
        ("permessage-deflate; client_max_window_bits=10; Client_Max_Window_Bits=9", .deflateParameterRepeated("Client_Max_Window_Bits")),
        ("permessage-deflate; client_no_context_takeover=1", .deflateParameterInvalid(name: "client_no_context_takeover", value: "1")),
        ("permessage-deflate; server_no_context_takeover=\"\"", .deflateParameterInvalid(name: "server_no_context_takeover", value: "")),
        ("permessage-deflate; client_max_window_bits", .deflateParameterInvalid(name: "client_max_window_bits", value: nil)),
        ("permessage-deflate; server_max_window_bits=7", .deflateParameterInvalid(name: "server_max_window_bits", value: "7")),
        ("permessage-deflate; server_max_window_bits=16", .deflateParameterInvalid(name: "server_max_window_bits", value: "16")),
        ("permessage-deflate; server_max_window_bits=010", .deflateParameterInvalid(name: "server_max_window_bits", value: "010")),
        ("permessage-deflate; server_max_window_bits=+9", .deflateParameterInvalid(name: "server_max_window_bits", value: "+9")),
        ("permessage-deflate; server_max_window_bits=ten", .deflateParameterInvalid(name: "server_max_window_bits", value: "ten")),
    ])
    func parametersRFC7692DoesNotAllowAreRefused(_ extensions: String, _ error: WebSocketHandshakeError) {
        #expect(throws: error) { try agree(extensions) }
    }

    @Test func anAgreementTheClientDidNotOfferIsRefused() {
        #expect(throws: WebSocketHandshakeError.deflateServerNoContextTakeoverMissing) {
            try agree("permessage-deflate", offering: Settings(serverNoContextTakeover: true))
        }
        #expect(throws: WebSocketHandshakeError.deflateServerMaxWindowBitsMissing(offered: 10)) {
            try agree("permessage-deflate", offering: Settings(serverMaxWindowBits: 10))
        }
        let serverOver = WebSocketHandshakeError.deflateWindowBitsOverOffer(parameter: "server_max_window_bits", offered: 10, received: 11)
        #expect(throws: serverOver) {
            try agree("permessage-deflate; server_max_window_bits=11", offering: Settings(serverMaxWindowBits: 10))
        }
        let clientOver = WebSocketHandshakeError.deflateWindowBitsOverOffer(parameter: "client_max_window_bits", offered: 9, received: 12)
        #expect(throws: clientOver) {
            try agree("permessage-deflate; client_max_window_bits=12", offering: Settings(clientMaxWindowBits: 9))
        }
    }

    @Test func eachRefusalSaysWhatWasWrong() {
        #expect(WebSocketHandshakeError.deflateServerMaxWindowBitsMissing(offered: 10).description
            == "the server accepted permessage-deflate without server_max_window_bits, which the client limited to 10")
        let over = WebSocketHandshakeError.deflateWindowBitsOverOffer(parameter: "server_max_window_bits", offered: 10, received: 11)
        #expect(over.description == "the server's permessage-deflate has server_max_window_bits=11, over the 10 the client offered")
        #expect(WebSocketHandshakeError.deflateParameterInvalid(name: "server_max_window_bits", value: "7").description
            == "the server's permessage-deflate has server_max_window_bits=\"7\", a value server_max_window_bits cannot have")
        #expect(WebSocketHandshakeError.deflateParameterUnknown("x").description
            == "the server's permessage-deflate has the parameter \"x\", which RFC 7692 does not define for a response")
        #expect(WebSocketHandshakeError.extensionRepeated("permessage-deflate").description
            == "the server accepted the extension permessage-deflate more than once")
    }
}
