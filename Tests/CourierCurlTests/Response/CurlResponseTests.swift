#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlResponse: a response read lazily from its header bytes")
struct CurlResponseTests {
    private let url = URL(string: "http://127.0.0.1/x")!

    private func response(_ head: String, body: String = "") -> CurlResponse? {
        CurlResponse(url: url, headerBytes: Array(head.utf8), body: Data(body.utf8))
    }

    @Test func statusLineAndLookupsMatchTheFullParse() throws {
        let head = "HTTP/1.1 201 Created\r\nContent-Type: text/plain\r\nset-cookie: a=1\r\nX-Long: a\r\n\tb\r\nSet-Cookie: b=2\r\nX-Empty:\r\n\r\n"
        let parsed = try #require(response(head, body: "hi"))
        let full = try #require(CurlResponseHead(bytes: Array(head.utf8)))
        #expect(parsed.statusCode == 201)
        #expect(parsed.httpVersion == "HTTP/1.1")
        #expect(parsed.body == Data("hi".utf8))
        #expect(parsed.headerFields == full.fields)
        for name in ["content-type", "SET-COOKIE", "x-long", "X-Empty"] {
            let key = try #require(full.fields.keys.first { $0.lowercased() == name.lowercased() })
            #expect(parsed.value(forHTTPHeaderField: name) == full.fields[key], "\(name)")
        }
        #expect(parsed.value(forHTTPHeaderField: "Set-Cookie") == "a=1, b=2")
        #expect(parsed.value(forHTTPHeaderField: "X-Long") == "a b")
        #expect(parsed.value(forHTTPHeaderField: "Content") == nil)
        #expect(parsed.value(forHTTPHeaderField: "Content-Type-X") == nil)
        #expect(parsed.value(forHTTPHeaderField: "HTTP/1.1 201 Created") == nil)
    }

    @Test func aBlockWithoutAStatusLineIsNoResponse() {
        #expect(response("") == nil)
        #expect(response("Content-Type: text/plain\r\n\r\n") == nil)
        #expect(response("HTTP/1.1 20 OK\r\n\r\n") == nil)
        #expect(response("HTTP/1.1 2000 OK\r\n\r\n") == nil)
        #expect(response("HTTP/2 204\r\n\r\n")?.statusCode == 204)
        #expect(response("HTTP/1.0 200 OK\n\n")?.httpVersion == "HTTP/1.0")
    }

    @Test func foundationsResponseCarriesTheSameFacts() throws {
        let parsed = try #require(response("HTTP/1.1 404 Not Found\r\ncontent-type: text/html; charset=utf-8\r\nContent-Length: 0\r\n\r\n"))
        let foundation = try #require(parsed.head.httpURLResponse)
        #expect(foundation.statusCode == 404)
        #expect(foundation.url == url)
        #expect(foundation.value(forHTTPHeaderField: "Content-Type") == "text/html; charset=utf-8")
        #expect(foundation.mimeType == "text/html")
        #expect(foundation.expectedContentLength == 0)
    }

    @Test func theTransportAnswersWithTheSameExchangeBothWays() async throws {
        try await withCurlTransport { server, transport in
            let target = server.url("/response-headers?X-Multi=a&X-Multi=b")
            let light = try await transport.response(for: request(target))
            let (data, full) = try await transport.http(request(target))
            #expect(light.statusCode == 200)
            #expect(light.statusCode == full.statusCode)
            #expect(light.url == full.url)
            #expect(light.url?.path == "/response-headers")
            #expect(light.body == data)
            #expect(light.value(forHTTPHeaderField: "x-multi") == "a, b")
            #expect(light.value(forHTTPHeaderField: "x-multi") == full.value(forHTTPHeaderField: "X-Multi"))
            await #expect(throws: URLError.self) {
                _ = try await transport.response(for: request(server.url("/close")))
            }
        }
    }

    @Test func responseForIsOneExchangeAndReturnsTheRedirect() async throws {
        try await withCurlTransport { server, transport in
            let target = server.url("/redirect-to?url=/get")
            let light = try await transport.response(for: request(target))
            #expect(light.statusCode == 302)
            #expect(light.url == target)
            #expect(light.value(forHTTPHeaderField: "Location") == "/get")
        }
    }
}
