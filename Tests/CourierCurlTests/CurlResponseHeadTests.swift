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
    }
}
