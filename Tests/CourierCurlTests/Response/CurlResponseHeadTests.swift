import Testing
@testable import CourierCurl

@Suite("CurlResponseHead: parsing raw header bytes")
struct CurlResponseHeadTests {
    private func parse(_ text: String) -> CurlResponseHead? {
        CurlResponseHead(bytes: Array(text.utf8))
    }

    @Test func statusVersionAndFields() throws {
        let head = try #require(parse("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length:  3 \r\n\r\n"))
        #expect(head.statusCode == 404)
        #expect(head.httpVersion == "HTTP/1.1")
        #expect(head.fields == ["Content-Type": "text/plain", "Content-Length": "3"])
    }

    @Test func repeatedFieldsJoinWithCommaSpaceUnderTheFirstSpelling() throws {
        let head = try #require(parse("HTTP/2 200\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\nX: 1\r\n\r\n"))
        #expect(head.fields["Set-Cookie"] == "a=1, b=2")
        #expect(head.fields["X"] == "1")
        #expect(head.statusCode == 200)
    }

    /// What libcurl hands the header callback for an HTTP/2 response: `HTTP/2 200 ` with a
    /// trailing space and no reason, the fields in lower case as HTTP/2 sends them.
    @Test func libcurlsHTTP2StatusLineAndLowercaseFields() throws {
        let bytes = Array("HTTP/2 200 \r\ncontent-type: application/json\r\nx-courier: one\r\n\r\n".utf8)
        let head = try #require(CurlResponseHead(bytes: bytes))
        #expect(head.statusCode == 200)
        #expect(head.httpVersion == "HTTP/2")
        #expect(head.fields == ["content-type": "application/json", "x-courier": "one"])
        #expect(CurlResponseHead.value(of: "Content-Type", in: bytes) == "application/json")
        #expect(CurlResponseHead.statusLine(in: Array("HTTP/2 404 \r\n\r\n".utf8))?.code == 404)
    }

    @Test func foldedLinesContinueTheValue() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\nX-Long: a\r\n  b\r\n\r\n"))
        #expect(head.fields["X-Long"] == "a b")
    }

    @Test func emptyValuesAndBareLFAreAccepted() throws {
        let head = try #require(parse("HTTP/1.0 204 No Content\nX-Empty:\n\n"))
        #expect(head.statusCode == 204)
        #expect(head.fields["X-Empty"] == "")
    }

    @Test func garbageHasNoHead() {
        #expect(parse("") == nil)
        #expect(parse("SSH-2.0-OpenSSH\r\n") == nil)
        #expect(parse("HTTP/1.1 2000 OK\r\n") == nil)
        // Three digits but below 100, which libcurl refuses too.
        #expect(parse("HTTP/1.1 000 OK\r\n") == nil)
        #expect(parse("HTTP/1.1 099 OK\r\n") == nil)
        #expect(CurlResponseHead.statusLine(in: Array("HTTP/1.1 099 OK\r\n".utf8)) == nil)
        // Far more digits than fit in an Int: rejected, not an arithmetic overflow trap.
        #expect(parse("HTTP/1.1 99999999999999999999 OK\r\n") == nil)
    }

    @Test func leadingAndTrailingSpacesAndTabsAreTrimmedFromValues() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\nX-Tabs:\t a \tb\t \r\nX-Blank: \t \r\n\r\n"))
        #expect(head.fields == ["X-Tabs": "a \tb", "X-Blank": ""])
    }

    @Test func foldingAfterARepeatedNameContinuesTheJoinedValue() throws {
        let head = try #require(parse(
            "HTTP/1.1 200 OK\r\nSet-Cookie: session=0123456789abcdef\r\nset-cookie: b=2\r\n\tPath=/\r\nX: 1\r\n\r\n"
        ))
        #expect(head.fields == ["Set-Cookie": "session=0123456789abcdef, b=2 Path=/", "X": "1"])
    }

    @Test func foldingBeforeAnyFieldIsIgnored() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\n  stray\r\nA: 1\r\n\r\n"))
        #expect(head.fields == ["A": "1"])
    }

    @Test func linesWithoutAColonAreSkipped() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\nnot a field\r\nA: 1\r\n\r\n"))
        #expect(head.fields == ["A": "1"])
    }

    @Test func aBlockWithoutTheFinalEmptyLineStillParses() throws {
        let terminated = try #require(parse("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\n"))
        #expect(terminated.fields == ["A": "1", "B": "2"])
        let unterminated = try #require(parse("HTTP/1.1 200 OK\nA: 1\nB: 2"))
        #expect(unterminated.fields == ["A": "1", "B": "2"])
        let statusOnly = try #require(parse("HTTP/1.1 204 No Content"))
        #expect(statusOnly.statusCode == 204)
        #expect(statusOnly.fields.isEmpty)
    }

    @Test func nonASCIIAndObsTextBytesInValuesAreDecodedWithRepair() throws {
        // "café" in UTF-8, then 0xFF, which is obs-text and not UTF-8: it becomes U+FFFD.
        let bytes = Array("HTTP/1.1 200 OK\r\nX-Name: caf".utf8) + [0xC3, 0xA9, 0x20, 0xFF] + Array("\r\n\r\n".utf8)
        let head = try #require(CurlResponseHead(bytes: bytes))
        #expect(head.fields == ["X-Name": "café \u{FFFD}"])
    }

    @Test func aCarriageReturnInsideAValueIsKept() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\nX: a\rb\r\n\r\n"))
        #expect(head.fields == ["X": "a\rb"])
    }

    @Test func nonASCIINamesJoinCaseInsensitivelyAlongsideASCIIOnes() throws {
        let head = try #require(parse("HTTP/1.1 200 OK\r\nA: 1\r\nÉtat: 2\r\na: 3\r\nétat: 4\r\n\r\n"))
        #expect(head.fields == ["A": "1, 3", "État": "2, 4"])
    }

    @Test func theLazyLookupGroupsNonASCIINamesAsTheFieldsDo() throws {
        let bytes = Array("HTTP/1.1 200 OK\r\nA: 1\r\nÉtat: 2\r\na: 3\r\nétat: 4\r\n\r\n".utf8)
        #expect(CurlResponseHead.value(of: "État", in: bytes) == "2, 4")
        #expect(CurlResponseHead.value(of: "a", in: bytes) == "1, 3")
        // KELVIN SIGN lowercases to ASCII k, so the dictionary joins it with `k`.
        let kelvin = Array("HTTP/1.1 200 OK\r\nk: 1\r\n\u{212A}: 2\r\n\r\n".utf8)
        #expect(try #require(CurlResponseHead(bytes: kelvin)).fields == ["k": "1, 2"])
        #expect(CurlResponseHead.value(of: "k", in: kelvin) == "1, 2")
        // Invalid UTF-8 in a name: found under the repaired name the dictionary keys it by.
        let invalid = Array("HTTP/1.1 200 OK\r\nX".utf8) + [0xFF] + Array(": v\r\n\r\n".utf8)
        let head = try #require(CurlResponseHead(bytes: invalid))
        #expect(head.fields == ["X\u{FFFD}": "v"])
        #expect(CurlResponseHead.value(of: "X\u{FFFD}", in: invalid) == "v")
    }

    @Test func manyFieldsStillJoinRepeatsUnderTheFirstSpelling() throws {
        let names = (0..<40).map { "X-Field-\($0)" }
        let lines = names.map { "\($0): \($0)" } + ["x-field-0: again", "X-FIELD-39: again"]
        let head = try #require(parse("HTTP/1.1 200 OK\r\n" + lines.joined(separator: "\r\n") + "\r\n\r\n"))
        #expect(head.fields.count == 40)
        #expect(head.fields["X-Field-0"] == "X-Field-0, again")
        #expect(head.fields["X-Field-39"] == "X-Field-39, again")
        #expect(head.fields["X-Field-20"] == "X-Field-20")
    }
}
