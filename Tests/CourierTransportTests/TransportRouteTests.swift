#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The transport suite: every test server route through every transport, written once.
@Suite(.testServer) struct TransportRouteTests {
    @Test(arguments: TransportKind.configured)
    func getEchoesPathQueryAndHeaders(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/get?name=a%20b&n=1&n=2", on: server, headers: ["X-Courier": "yes"])
        #expect(response.statusCode == 200)
        #expect(response.url == server.url("/get?name=a%20b&n=1&n=2"))
        let received = try echo(data)
        #expect(received.method == "GET")
        #expect(received.path == "/get")
        #expect(received.args == ["name": ["a b"], "n": ["1", "2"]])
        #expect(received.headerValues("X-Courier") == ["yes"])
        #expect(received.body.isEmpty)
    }

    @Test(arguments: TransportKind.configured, ["POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND"])
    func anythingEchoesEveryMethodAndBody(_ transport: TransportKind, method: String) async throws {
        let server = try sharedServer()
        let body = Data("{\"method\":\"\(method)\"}".utf8)
        let (data, response) = try await transport.send(method, "/anything/deep/path", on: server,
                                                        headers: ["Content-Type": "application/json"], body: body)
        #expect(response.statusCode == 200)
        let received = try echo(data)
        #expect(received.method == method)
        #expect(received.path == "/anything/deep/path")
        #expect(received.bodyData == body)
        #expect(received.headerValues("Content-Type") == ["application/json"])
    }

    @Test(arguments: TransportKind.configured)
    func binaryRequestBodiesArriveByteForByte(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let body = TestServer.deterministicBytes(count: 300_000, seed: 7)
        let (data, _) = try await transport.send("POST", "/anything", on: server,
                                                 headers: ["Content-Type": "application/octet-stream"], body: body)
        #expect(try echo(data).bodyData == body)
    }

    /// `httpBodyStream` bodies, from memory and from a file, go out chunked and arrive whole.
    @Test(arguments: TransportKind.configured, [false, true])
    func streamBodiesArriveByteForByte(_ transport: TransportKind, fromFile: Bool) async throws {
        let server = try sharedServer()
        let body = TestServer.deterministicBytes(count: 2_000_000, seed: 11)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-stream-\(UUID().uuidString)")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: server.url("/anything"))
        request.httpMethod = "PUT"
        request.httpBodyStream = fromFile ? InputStream(url: file) : InputStream(data: body)
        let (data, response) = try await transport.send(request)
        #expect(response.statusCode == 200)
        let received = try echo(data)
        #expect(received.bodyData == body)
        #expect(received.headerValues("Transfer-Encoding") == ["chunked"])
    }

    @Test(arguments: TransportKind.configured)
    func headHasHeadersButNoBody(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("HEAD", "/get", on: server)
        #expect(response.statusCode == 200)
        #expect(data.isEmpty)
        #expect(response.value(forHTTPHeaderField: "Content-Type")?.contains("json") == true)
    }

    @Test(arguments: TransportKind.configured, [200, 201, 202, 204, 400, 401, 403, 404, 418, 429, 500, 502, 503])
    func statusCodesArriveAsResponses(_ transport: TransportKind, status: Int) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/status/\(status)", on: server)
        #expect(response.statusCode == status)
        #expect(data.isEmpty)
    }

    @Test(arguments: TransportKind.configured, [301, 302, 303, 307, 308])
    func redirectStatusesAreFollowed(_ transport: TransportKind, status: Int) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/status/\(status)", on: server)
        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/get")
        #expect(try echo(data).path == "/get")
    }

    @Test(arguments: TransportKind.configured, [0, 1, 1024, 1_000_000])
    func bytesAreDeterministic(_ transport: TransportKind, count: Int) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/bytes/\(count)", on: server)
        #expect(response.statusCode == 200)
        #expect(data == TestServer.deterministicBytes(count: count))
        #expect(response.value(forHTTPHeaderField: "Content-Length") == "\(count)")
    }

    @Test(arguments: TransportKind.configured)
    func chunkedBodiesAreReassembled(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/stream-bytes/250000?chunk_size=4096", on: server)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(data == TestServer.deterministicBytes(count: 250_000))
    }

    @Test(arguments: TransportKind.configured, ["/gzip", "/deflate", "/brotli", "/zstd"])
    func compressedBodiesAreDecoded(_ transport: TransportKind, path: String) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", path, on: server)
        #expect(response.statusCode == 200)
        #expect(try echo(data).path == path)
    }

    /// By default each engine asks for every coding it decodes; URLSession's, told to decode
    /// nothing, asks for identity and refuses a coding sent anyway, at the head.
    @Test(arguments: TransportKind.configured, ["/gzip", "/brotli"])
    func byDefaultEveryDecodableCodingIsAskedFor(_ transport: TransportKind, path: String) async throws {
        let server = try sharedServer()
        let asked = try echo(try await transport.send("GET", "/get", on: server).0).headerValues("Accept-Encoding")
        switch transport {
        case .urlSession:
            #expect(asked == ["deflate, gzip, br, zstd"])
            let identityOnly = URLSessionTransport.Configuration(contentDecoding: .identityOnly)
            let (identityAsked, error) = try await transport.withIsolatedTransport(urlSession: identityOnly) { networking in
                let asked = try echo(try await networking(URLRequest(url: server.url("/get"))).0).headerValues("Accept-Encoding")
                return (asked, await Result { try await networking(URLRequest(url: server.url(path))) }.failure as? URLError)
            }
            #expect(identityAsked == ["identity"])
            #expect(error?.code == .cannotDecodeContentData)
            #expect(error?.localizedDescription.contains("contentDecoding is .identityOnly") == true)
        case .curl:
            // Every coding the linked libcurl decodes, and only those.
            #expect(asked == [Curl.features.acceptEncoding])
            if Curl.features.contentCodings.contains(path == "/gzip" ? "gzip" : "br") {
                #expect(try await transport.send("GET", path, on: server).1.statusCode == 200)
            }
        }
    }

    @Test(arguments: TransportKind.configured)
    func requestHeadersAreSentAsGiven(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, _) = try await transport.send("GET", "/headers", on: server, headers: ["X-One": "1", "X-Spaces": "a  b\tc"])
        let fields = try JSONDecoder().decode([String: [HTTPHeaderField]].self, from: data)["headers"] ?? []
        let values = Dictionary(fields.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        #expect(values["x-one"] == "1")
        #expect(values["x-spaces"] == "a  b\tc")
        #expect(values["host"] == "127.0.0.1:\(server.port)")
    }

    @Test(arguments: TransportKind.configured)
    func repeatedResponseHeadersAreJoined(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (_, response) = try await transport.send("GET", "/response-headers?X-Multi=one&X-Multi=two&X-Single=x", on: server)
        #expect(response.value(forHTTPHeaderField: "X-Multi") == "one, two")
        #expect(response.value(forHTTPHeaderField: "x-single") == "x")
    }

    @Test(arguments: TransportKind.configured)
    func redirectChainsEndAtTheFinalURL(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        for path in ["/redirect/3", "/absolute-redirect/2", "/relative-redirect/1"] {
            let (data, response) = try await transport.send("GET", path, on: server)
            #expect(response.statusCode == 200, "\(path)")
            #expect(response.url == server.url("/get"), "\(path)")
            #expect(try echo(data).path == "/get", "\(path)")
        }
    }

    @Test(arguments: TransportKind.configured, [(303, "GET", false), (302, "GET", false), (301, "GET", false), (307, "POST", true), (308, "POST", true)])
    func redirectsAfterPostFollowURLSessionsRules(_ transport: TransportKind, rule: (status: Int, method: String, keepsBody: Bool)) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("POST", "/redirect-to?url=/anything&status_code=\(rule.status)", on: server,
                                                        headers: ["Content-Type": "text/plain"], body: Data("payload".utf8))
        #expect(response.statusCode == 200)
        let received = try echo(data)
        #expect(received.method == rule.method)
        #expect(received.bodyText == (rule.keepsBody ? "payload" : ""))
    }

    @Test(arguments: TransportKind.configured)
    func delayWithinTheTimeoutSucceeds(_ transport: TransportKind) async throws {
        // Its own server: waiting for one of the transport's connections to the shared server
        // counts against the timeout (as it does for URLSession). And a timeout only a hang
        // reaches: in the first seconds of the parallel suite next to a busy loop, this 0.2 s
        // answer twice took more than 5 s to arrive (2 curl runs in 8). A timeout read in the
        // wrong unit (milliseconds) still fires before the answer.
        let server = try await TestServer.start()
        let (data, response) = try await transport.send("GET", "/delay/0.2", on: server, timeout: TestRun.hangLimitSeconds)
        #expect(response.statusCode == 200)
        #expect(try echo(data).path == "/delay/0.2")
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func serverCookiesAreNotStoredByDefault(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, response) = try await transport.send("GET", "/cookies/set?flavour=oat", on: server)
        #expect(response.statusCode == 200)
        #expect(response.url?.path == "/cookies")
        let cookies = try JSONDecoder().decode([String: [String: String]].self, from: data)
        #expect(cookies["cookies"] == [:])
    }

    @Test(arguments: TransportKind.configured)
    func basicAuthChallengeIsAResponseAndCredentialsPass(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (_, challenge) = try await transport.send("GET", "/basic-auth/ada/secret", on: server)
        #expect(challenge.statusCode == 401)
        #expect(challenge.url == server.url("/basic-auth/ada/secret"))
        #expect(challenge.value(forHTTPHeaderField: "WWW-Authenticate")?.hasPrefix("Basic") == true)
        let token = Data("ada:secret".utf8).base64EncodedString()
        let (data, response) = try await transport.send("GET", "/basic-auth/ada/secret", on: server, headers: ["Authorization": "Basic \(token)"])
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains("\"user\""))
    }

    @Test(arguments: TransportKind.configured)
    func unknownPathsAre404(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (_, response) = try await transport.send("GET", "/no/such/route", on: server)
        #expect(response.statusCode == 404)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
