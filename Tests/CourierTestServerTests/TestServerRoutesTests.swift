import CZlib
import CourierTestServer
import Foundation
import Synchronization
import Testing

@Suite struct TestServerRoutesTests {
    @Test func closeRouteClosesWithoutAnyBytes() async throws {
        try await withServer { server in
            let received = try await RawConnection.with(server) { connection in
                try await connection.send("GET /close HTTP/1.1\r\nHost: a\r\n\r\n")
                return try await connection.readToEnd()
            }
            #expect(String(decoding: received, as: UTF8.self) == "")
            #expect(server.lastRequest?.path == "/close")
        }
    }

    @Test func truncateSendsHalfOfTheAnnouncedBody() async throws {
        try await withServer { server in
            let (head, rest) = try await RawConnection.with(server) { connection in
                try await connection.send("GET /truncate/1001 HTTP/1.1\r\nHost: a\r\n\r\n")
                return (try await connection.readHead(), try await connection.readToEnd())
            }
            #expect(head.status == 200)
            #expect(head.value("Content-Length") == "1001")
            #expect(Data(rest) == TestServer.deterministicBytes(count: 500))
        }
    }

    @Test func bytesHaveContentLengthAndDeterministicContent() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/bytes/200000?seed=7")
            #expect(response.value("Content-Length") == "200000")
            #expect(response.value("Content-Type") == "application/octet-stream")
            #expect(response.value("Transfer-Encoding") == nil)
            #expect(Data(response.body) == TestServer.deterministicBytes(count: 200_000, seed: 7))
        }
    }

    @Test func streamBytesAreChunked() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/stream-bytes/25000?chunk_size=10000")
            #expect(response.value("Transfer-Encoding") == "chunked")
            #expect(response.value("Content-Length") == nil)
            #expect(response.chunkSizes == [10000, 10000, 5000])
            #expect(Data(response.body) == TestServer.deterministicBytes(count: 25000))

            let defaults = try await fetch(server, "/stream-bytes/25000")
            #expect(defaults.chunkSizes == [10240, 10240, 4520])
        }
    }

    @Test(arguments: [("/gzip", "gzip", Int32(31)), ("/deflate", "deflate", Int32(15))])
    func compressedBodyInflatesToEcho(path: String, encoding: String, windowBits: Int32) async throws {
        try await withServer { server in
            let response = try await fetch(server, path)
            #expect(response.value("Content-Encoding") == encoding)
            #expect(response.value("Content-Length") == "\(response.body.count)")
            let json = try #require(inflate(response.body, windowBits: windowBits))
            let echo = try decode(Echo.self, from: json)
            #expect(echo.path == path)
        }
    }

    @Test func headGetsGetHeadersAndNoBody() async throws {
        try await withServer { server in
            let get = try await fetch(server, "/get")
            try await RawConnection.with(server) { connection in
                // A body after HEAD's headers would be parsed as the next status line and fail.
                try await connection.send("HEAD /get HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let head = try await connection.readResponse(isHead: true)
                #expect(head.status == 200)
                #expect(head.value("Content-Length") == get.value("Content-Length"))
                #expect(head.value("Content-Type") == "application/json")
                #expect(connection.pending.isEmpty)
                try await connection.send("GET /status/204 HTTP/1.1\r\nHost: localhost\r\n\r\n")
                #expect(try await connection.readResponse().status == 204)
            }
            #expect(server.lastRequest?.method == "GET")
            #expect(server.acceptedConnectionCount == 2)
        }
    }

    @Test(arguments: [
        "/status/abc", "/status/99", "/status/600", "/status/99999999999999999999999",
        "/bytes/-1", "/bytes/104857601", "/bytes/12x", "/bytes/", "/bytes/5?seed=x",
        "/stream-bytes/10?chunk_size=0", "/stream-bytes/ten", "/truncate/-5",
        "/delay/nan", "/delay/31", "/delay/-1", "/redirect/0", "/absolute-redirect/x",
        "/redirect-to?url=/get&status_code=200", "/redirect-to", "/response-headers?Bad%20Name=1",
        "/response-headers?X=a%0D%0AInjected:%201",
    ])
    func malformedParametersGive400(path: String) async throws {
        try await withServer { server in
            let response = try await fetch(server, path)
            #expect(response.status == 400)
            #expect(try decode([String: String].self, from: response.body)["error"] != nil)
        }
    }

    @Test func http10StreamEndsWithTheConnection() async throws {
        try await withServer { server in
            let (head, body) = try await RawConnection.with(server) { connection in
                try await connection.send("GET /stream-bytes/3000 HTTP/1.0\r\n\r\n")
                return (try await connection.readHead(), try await connection.readToEnd())
            }
            #expect(head.value("Transfer-Encoding") == nil)
            #expect(head.value("Connection") == "close")
            #expect(Data(body) == TestServer.deterministicBytes(count: 3000))
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer { server in
            let statuses = try await RawConnection.with(server) { connection in
                try await connection.send(
                    "GET /delay/0.05 HTTP/1.1\r\nHost: a\r\n\r\nGET /status/418 HTTP/1.1\r\nHost: a\r\n\r\n"
                )
                return [try await connection.readResponse().status, try await connection.readResponse().status]
            }
            #expect(statuses == [200, 418])
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func unparsableRequestGets400() async throws {
        try await withServer { server in
            let response = try await RawConnection.with(server) { connection in
                try await connection.send("THIS IS NOT HTTP\r\n\r\n")
                return try await connection.readResponse()
            }
            #expect(response.status == 400)
        }
    }

    @Test func unknownPathIs404Json() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/nope")
            #expect(response.status == 404)
            #expect(try decode([String: String].self, from: response.body) == ["error": "not found"])
        }
    }

    @Test func statusRouteAddsRedirectAndChallengeHeaders() async throws {
        try await withServer { server in
            let teapot = try await fetch(server, "/status/418")
            #expect(teapot.status == 418)
            #expect(teapot.body.isEmpty)
            #expect(teapot.value("Content-Length") == "0")
            #expect(try await fetch(server, "/status/307").value("Location") == "/get")
            let unauthorized = try await fetch(server, "/status/401")
            #expect(unauthorized.value("WWW-Authenticate") == #"Basic realm="Courier""#)
        }
    }

    @Test func redirectsFormChainsEndingAtGet() async throws {
        try await withServer { server in
            let two = try await fetch(server, "/redirect/2")
            #expect(two.status == 302)
            #expect(two.value("Location") == "/redirect/1")
            #expect(try await fetch(server, "/relative-redirect/1").value("Location") == "/get")
            let absolute = try await fetch(server, "/absolute-redirect/2")
            #expect(absolute.value("Location") == "http://127.0.0.1:\(server.port)/absolute-redirect/1")
            let to = try await fetch(server, "/redirect-to?url=http%3A%2F%2Fexample.com%2Fx%3Fy&status_code=307")
            #expect(to.status == 307)
            #expect(to.value("Location") == "http://example.com/x?y")
        }
    }

    @Test func responseHeadersAreEmittedInOrder() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/response-headers?X-A=1&X-B=2&X-A=3")
            #expect(response.values("X-A") == ["1", "3"])
            #expect(response.headers.filter { $0.name.hasPrefix("X-") }.map(\.value) == ["1", "2", "3"])
            let fields = try decode([HTTPHeaderField].self, from: response.body)
            #expect(fields.map(\.name) == ["X-A", "X-B", "X-A"])
        }
    }

    @Test func cookiesAreSetAndEchoed() async throws {
        try await withServer { server in
            let set = try await fetch(server, "/cookies/set?a=1&b=two")
            #expect(set.status == 302)
            #expect(set.value("Location") == "/cookies")
            #expect(set.values("Set-Cookie") == ["a=1; Path=/", "b=two; Path=/"])
            let echoed = try await fetch(server, "/cookies", headers: "Cookie: a=1; b=two\r\nCookie: c=3\r\n")
            let cookies = try decode([String: [String: String]].self, from: echoed.body)
            #expect(cookies == ["cookies": ["a": "1", "b": "two", "c": "3"]])
        }
    }

    @Test func basicAuthAcceptsOnlyMatchingCredentials() async throws {
        try await withServer { server in
            let good = Data("ann:s3cret".utf8).base64EncodedString()
            let ok = try await fetch(server, "/basic-auth/ann/s3cret", headers: "Authorization: Basic \(good)\r\n")
            #expect(ok.status == 200)
            #expect(String(decoding: ok.body, as: UTF8.self) == #"{"authenticated":true,"user":"ann"}"#)
            let bad = Data("ann:wrong".utf8).base64EncodedString()
            let denied = try await fetch(server, "/basic-auth/ann/s3cret", headers: "Authorization: Basic \(bad)\r\n")
            #expect(denied.status == 401)
            #expect(denied.value("WWW-Authenticate") == #"Basic realm="Courier""#)
            #expect(denied.body.isEmpty)
        }
    }

    @Test func delayWaitsWithoutBlockingOtherConnections() async throws {
        // Ordering, not wall-clock bounds: a quick request sent while a delay is pending must be
        // answered before it. The delay is the route's longest, 30 s, so that only a server
        // that blocks loses the race, not a machine that stalls for seconds; shutting the
        // server down cancels it, so a passing run does not wait for it.
        try await withServer { server in
            let delayedAnswered = Atomic<Bool>(false)
            let delayed = Task {
                let response = try await fetch(server, "/delay/30")
                delayedAnswered.store(true, ordering: .sequentiallyConsistent)
                return response
            }
            let quick = try await fetch(server, "/get")
            #expect(quick.status == 200)
            let answeredFirst = delayedAnswered.load(ordering: .sequentiallyConsistent)
            #expect(!answeredFirst)
            delayed.cancel()
        }
    }

    @Test func oversizedBodyIsRefusedWith413() async throws {
        try await withServer { server in
            let response = try await RawConnection.with(server) { connection in
                try await connection.send("POST /anything HTTP/1.1\r\nHost: a\r\nContent-Length: 67108865\r\n\r\n")
                return try await connection.readResponse()
            }
            #expect(response.status == 413)
            #expect(response.value("Connection") == "close")
            #expect(server.requestCount == 0)
        }
    }

    @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send(
                    "PUT /anything HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n"
                )
                #expect(try await connection.readHead().status == 100)
                try await connection.send("hi")
                let response = try await connection.readResponse()
                #expect(try decode(Echo.self, from: response.body).bodyText == "hi")
            }
        }
    }
}

/// Inflates with zlib directly, independent of the server's own compression code.
private func inflate(_ input: [UInt8], windowBits: Int32) -> [UInt8]? {
    var stream = z_stream()
    guard inflateInit2_(&stream, windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
        return nil
    }
    defer { inflateEnd(&stream) }
    var source = input
    var output = [UInt8](repeating: 0, count: 1 << 20)
    let status = source.withUnsafeMutableBufferPointer { inBuffer in
        output.withUnsafeMutableBufferPointer { outBuffer in
            stream.next_in = inBuffer.baseAddress
            stream.avail_in = uInt(inBuffer.count)
            stream.next_out = outBuffer.baseAddress
            stream.avail_out = uInt(outBuffer.count)
            return CZlib.inflate(&stream, Z_FINISH)
        }
    }
    guard status == Z_STREAM_END else { return nil }
    return Array(output.prefix(Int(stream.total_out)))
}
