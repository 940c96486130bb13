import Testing
@testable import CourierCurl

@Suite struct WebSocketExtensionTests {
    private typealias Parameter = WebSocketExtension.Parameter

    @Test func aListOfExtensionsWithParameters() throws {
        let value = "permessage-deflate; client_max_window_bits=10; server_no_context_takeover, x-other"
        let list = try #require(WebSocketExtension.list(from: value))
        #expect(list.map(\.name) == ["permessage-deflate", "x-other"])
        #expect(list[0].parameters == [Parameter("client_max_window_bits", "10"), Parameter("server_no_context_takeover")])
        #expect(list[0].text == "permessage-deflate; client_max_window_bits=10; server_no_context_takeover")
        #expect(list[1].parameters.isEmpty)
    }

    @Test func whitespaceAndEmptyElementsAreAllowed() throws {
        let value = " ,\tpermessage-deflate ;server_max_window_bits = 9 ; client_no_context_takeover ,, "
        let list = try #require(WebSocketExtension.list(from: value))
        #expect(list.count == 1)
        #expect(list[0].parameters == [Parameter("server_max_window_bits", "9"), Parameter("client_no_context_takeover")])
        #expect(list[0].text == "permessage-deflate ;server_max_window_bits = 9 ; client_no_context_takeover")
        #expect(WebSocketExtension.list(from: "") == [])
        #expect(WebSocketExtension.list(from: " , ") == [])
    }

    @Test func quotedValuesAreUnquoted() throws {
        let list = try #require(WebSocketExtension.list(from: #"permessage-deflate; server_max_window_bits="10"; x="a\"b,c""#))
        #expect(list.count == 1)
        #expect(list[0].parameters == [Parameter("server_max_window_bits", "10"), Parameter("x", #"a"b,c"#)])
    }

    @Test(arguments: [
        "permessage-deflate x",  // a second token without a separator
        "permessage-deflate; =10",  // a value without a name
        "permessage-deflate; server_max_window_bits=",  // a name and = without a value
        #"permessage-deflate; x="unterminated"#,
        "permessage-deflate;; x",  // an empty parameter
        "; x",  // parameters without an extension
        "permessage-deflate; x=1 2",
        "permessage-deflate; x=\u{1}",
    ])
    func malformedValuesAreRefused(_ value: String) {
        #expect(WebSocketExtension.list(from: value) == nil)
    }
}
