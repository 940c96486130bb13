#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

@Suite struct HeaderFieldsTests {
    private let block = HeaderFields(headBlock: Array((
        "HTTP/1.1 200 OK\r\n"
            + "Content-Type: text/plain\r\n"
            + "Set-Cookie: a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\r\n"
            + "set-cookie: b=2\r\n"
            + "X-Folded: first\r\n"
            + "  second\r\n"
            + "X-Empty:\r\n"
            + "\r\n"
    ).utf8))

    @Test func aBlockIsReadInOrderWithFoldedLinesJoined() {
        #expect(block.map(\.name) == ["Content-Type", "Set-Cookie", "set-cookie", "X-Folded", "X-Empty"])
        #expect(block["x-folded"] == "first second")
        #expect(block["X-Empty"] == "")
        #expect(block["Missing"] == nil)
        #expect(block["Content-Typ"] == nil && block["Content-Types"] == nil, "a name is compared whole")
        #expect(block.values(for: "x-folded") == ["first second"])
    }

    @Test func repeatedFieldsStayApartAndJoinOnlyWhenAskedTo() {
        #expect(block.values(for: "SET-COOKIE") == ["a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT", "b=2"])
        #expect(block["Set-Cookie"] == "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2")
        #expect(block.joined["Set-Cookie"] == "a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT, b=2")
        #expect(block.joined["set-cookie"] == nil, "joined under the first spelling")
    }

    @Test func namesCompareWithoutRegardToCaseOnly() {
        let fields: HeaderFields = ["ETag": "x", "Content-Length": "3"]
        #expect(fields["etag"] == "x")
        #expect(fields["content-length"] == "3")
        #expect(fields["content_length"] == nil)
        #expect(fields["Content-Lengt"] == nil)
    }

    @Test func aFoundationResponseIsReadWhereItIsAndHandedBackAsItIs() throws {
        let response = try #require(HTTPURLResponse(
            url: URL(fileURLWithPath: "/"), statusCode: 201, httpVersion: "HTTP/1.1", headerFields: ["X-One": "1"]
        ))
        let head = try #require(ResponseHead(response))
        #expect(head.statusCode == 201)
        #expect(head.headerFields["x-one"] == "1")
        #expect(head.httpURLResponse === response)
        #expect(ResponseHead(URLResponse(url: URL(fileURLWithPath: "/"), mimeType: nil, expectedContentLength: 0, textEncodingName: nil)) == nil)
    }

    @Test func aBuiltHeadBecomesAFoundationResponseWithItsFields() throws {
        let head = ResponseHead(statusCode: 404, headerFields: block, url: URL(string: "http://127.0.0.1/x"), httpVersion: .http2)
        let response = try #require(head.httpURLResponse)
        #expect(response.statusCode == 404)
        #expect(response.value(forHTTPHeaderField: "content-type") == "text/plain")
        #expect(response.url == URL(string: "http://127.0.0.1/x"))
    }

    /// Two `Content-Length` fields stay two in a head block; the validation layer must still
    /// see that they disagree, and that a repeat of one length does not.
    @Test func repeatedContentLengthFieldsAreCheckedAcrossFields() {
        let conflicting = ResponseHead(
            statusCode: 200, headerFields: HeaderFields(headBlock: Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6 \r\n\r\n".utf8)),
            url: nil
        )
        #expect(conflicting.fieldProblem?.contains("Content-Length is given more than once with different values") == true)
        let repeated = ResponseHead(
            statusCode: 200, headerFields: HeaderFields(headBlock: Array("HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5 \r\n\r\n".utf8)),
            url: nil
        )
        #expect(repeated.fieldProblem == nil)
    }

    private static func head(_ fields: String) -> HeaderFields {
        HeaderFields(headBlock: Array(("HTTP/1.1 200 OK\r\n" + fields).utf8))
    }

    @Test(arguments: [
        ("X-Note: a\rb\r\n\r\n", "the value of X-Note holds a bare CR"),
        ("X-Note: a\r\r\n\r\n", "the value of X-Note holds a bare CR"),
        ("X-Note: a\r", "the value of X-Note holds a bare CR"),
        ("X-Note: a\u{0}b\r\n\r\n", "the value of X-Note holds a NUL byte"),
        ("X-Note: first\r\n \u{0}second\r\n", "the value of X-Note holds a NUL byte"),
        ("Content-Length: 5, 6\r\n\r\n", "Content-Length is given more than once with different values (5, 6)"),
        ("Content-Length: 5\r\nX-A: b\r\ncontent-length: 6\r\n\r\n", "Content-Length is given more than once with different values (5, 6)"),
        ("Content-Length: 5\r\n 6\r\n\r\n", "Content-Length is given more than once with different values (5 6)"),
        ("Content-Length: 5\nContent-Length: 6\n\n", "Content-Length is given more than once with different values (5, 6)"),
    ])
    func aHeadBlockWithAProblemIsRefused(fields: String, problem: String) {
        #expect(Self.head(fields).problem == problem)
    }

    @Test(arguments: [
        "Server: nginx\r\nContent-Type: text/plain\r\nContent-Length: 13\r\nConnection: keep-alive\r\n\r\n",
        "Content-Length: 5, 5\r\n\r\n",
        "Content-Length: 5\r\ncontent-length:  5 \r\n\r\n",
        "Content-Length : 5\r\nContent-Length: 6\r\n\r\n",
        "X-Tab: a\tb\r\nX-List: a, b\r\n\r\n",
        "X-Folded: a\r\n\tb\r\n\r\n",
        "X\rA: b\r\nno colon \u{0}\r\n\r\n",
        "Content-Length: 5\nX-A: b\n\n",
        "",
    ])
    func aHeadBlockWithoutAProblemIsAccepted(fields: String) {
        #expect(Self.head(fields).problem == nil)
    }

    @Test func aValueWithALineFeedIsRefusedWhereFieldsArriveApart() {
        #expect(HeaderFields([HeaderField(name: "X-Note", value: "a\nb")]).problem == "the value of X-Note holds a line feed")
        #expect(HeaderFields([HeaderField(name: "X-Note", value: "a\rb")]).problem == "the value of X-Note holds a bare CR")
        #expect(HeaderFields([HeaderField(name: "X-Note", value: "a\u{0}b")]).problem == "the value of X-Note holds a NUL byte")
        #expect((["Content-Length": "5", "content-length": "5 "] as HeaderFields).problem == nil)
    }

    /// The sweep that lets most blocks by unread must never let by one that the field-by-field
    /// reading refuses: every byte that matters, put at every place of a few blocks.
    @Test func theSweepAgreesWithTheFieldByFieldReading() {
        let blocks = [
            "HTTP/1.1 200 OK\r\nContent-Length: 13\r\nX-A: b\r\n\r\n",
            "HTTP/1.1 200 OK\nX-A: b, c\nContent-Length: 5\n X\n\n",
            "\r\nHTTP/1.1 200 OK\r\ncontent-length:5\r\n",
        ]
        let inserted: [UInt8] = [0x0D, 0x0A, 0x00, 0x20, 0x09, UInt8(ascii: ","), UInt8(ascii: "6"), UInt8(ascii: "C"), UInt8(ascii: ":")]
        for block in blocks.map({ Array($0.utf8) }) {
            for index in 0...block.count {
                for byte in inserted {
                    var bytes = block
                    bytes.insert(byte, at: index)
                    let fields = HeaderFields(headBlock: bytes)
                    #expect(fields.problem == fields.problemInBlock(bytes), "\(bytes)")
                }
            }
            let doubled = block + Array("Content-Length: 5\r\nContent-Length: 5\r\n".utf8)
            #expect(HeaderFields(headBlock: doubled).problem == HeaderFields(headBlock: doubled).problemInBlock(doubled))
        }
    }

    @Test(arguments: [("HTTP/1.1", HTTPVersion.http1_1), ("HTTP/1.0", .http1_0), ("HTTP/2", .http2), ("HTTP/2.0", .http2), ("HTTP/3", .http3)])
    func versionsReadFromAStatusLine(text: String, version: HTTPVersion) {
        #expect(HTTPVersion(statusLineVersion: text) == version)
        #expect(HTTPVersion(statusLineVersion: "Http/1.1") == nil)
        #expect(HTTPVersion(statusLineVersion: "HTTP/x") == nil)
    }
}
