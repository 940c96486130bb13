import CourierTestServer
import Foundation
import NIOCore
import NIOPosix
import Testing

@Suite struct TestServerTests {
    @Test func startsOnEphemeralPortAndShutsDownIdempotently() async throws {
        let server = try await TestServer.start()
        #expect(server.port > 0)
        #expect(server.host == "127.0.0.1")
        #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
        try await server.shutdown()
        try await server.shutdown()
        // Another test's server may be given the freed port at once, so a connection that
        // succeeds proves nothing; what must hold is that this server accepts none.
        let accepted = server.acceptedConnectionCount
        _ = try? await RawConnection.with(server) { _ in }
        #expect(server.acceptedConnectionCount == accepted)
    }

    @Test func rejectsPortOutOfRange() async throws {
        await #expect(throws: TestServerError.invalidPort(70_000)) {
            _ = try await TestServer.start(port: 70_000)
        }
    }

    @Test func getRoundTripIsEchoedAndRecorded() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/get?a=1&a=2&b=x+y%21", headers: "X-Trace: One\r\n")
            #expect(response.status == 200)
            #expect(response.value("Content-Type") == "application/json")
            #expect(response.value("Content-Length") == "\(response.body.count)")
            let echo = try decode(Echo.self, from: response.body)
            #expect(echo.method == "GET")
            #expect(echo.path == "/get")
            #expect(echo.args == ["a": ["1", "2"], "b": ["x+y!"]])
            #expect(echo.headers == [
                HTTPHeaderField(name: "Host", value: "localhost"), HTTPHeaderField(name: "X-Trace", value: "One"),
            ])

            let recorded = try #require(server.lastRequest)
            #expect(recorded.method == "GET")
            #expect(recorded.uri == "/get?a=1&a=2&b=x+y%21")
            #expect(recorded.path == "/get")
            #expect(recorded.query == "a=1&a=2&b=x+y%21")
            #expect(recorded.value(for: "x-trace") == "One")
            #expect(recorded.body.isEmpty)
            #expect(server.requestCount == 1)
        }
    }

    @Test func requestBodyIsRecordedWhenComplete() async throws {
        try await withServer { server in
            let response = try await RawConnection.with(server) { connection in
                // Chunked upload in two pieces, so recording must wait for the whole body.
                try await connection.send(
                    "POST /anything/x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nhel\r\n"
                )
                try await connection.send("2\r\nlo\r\n0\r\n\r\n")
                return try await connection.readResponse()
            }
            let echo = try decode(Echo.self, from: response.body)
            #expect(echo.method == "POST")
            #expect(echo.path == "/anything/x")
            #expect(echo.bodyText == "hello")
            #expect(echo.body == Data("hello".utf8).base64EncodedString())
            #expect(server.lastRequest?.body == Data("hello".utf8))
        }
    }

    @Test func keepAliveReusesOneConnection() async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                for path in ["/get", "/headers"] {
                    try await connection.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
                    #expect(try await connection.readResponse().status == 200)
                }
            }
            #expect(server.acceptedConnectionCount == 1)
            #expect(server.requestCount == 2)
            _ = try await fetch(server, "/get")
            #expect(server.acceptedConnectionCount == 2)
        }
    }

    @Test func connectionCloseRequestIsHonoured() async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send("GET /get HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                let response = try await connection.readResponse()
                #expect(response.value("Connection") == "close")
                #expect(try await connection.readToEnd().isEmpty)
            }
        }
    }

    /// Told apart by what the connection reads, not by how long it took: a shutdown that waited
    /// for the delay, or left it to run, lets its answer arrive at 30 s, well before the
    /// connection's own 300 s watchdog would end the read empty.
    @Test(.timeLimit(.minutes(10))) func shutdownClosesOpenConnectionsAndPendingDelays() async throws {
        let server = try await TestServer.start()
        try await RawConnection.with(server, timeout: .seconds(300)) { connection in
            try await connection.send("GET /delay/30 HTTP/1.1\r\nHost: a\r\n\r\n")
            while server.requestCount == 0 { try await Task.sleep(for: .milliseconds(5)) }
            try await server.shutdown()
            #expect(try await connection.readToEnd().isEmpty)
        }
    }

    @Test func urlAppendsPathAndQueryWithoutTrapping() async throws {
        try await withServer { server in
            let base = "http://127.0.0.1:\(server.port)"
            #expect(server.url("/get?a=1").absoluteString == base + "/get?a=1")
            #expect(server.url("get").absoluteString == base + "/get")
            let odd = server.url("/a b?c d")
            #expect(odd.absoluteString.hasPrefix(base + "/a"))
            #expect(!odd.absoluteString.contains(" "))
        }
    }

    @Test func deterministicBytesAreStableAndSeeded() {
        let bytes = TestServer.deterministicBytes(count: 1000)
        #expect(bytes.count == 1000)
        #expect(bytes == TestServer.deterministicBytes(count: 1000))
        #expect(TestServer.deterministicBytes(count: 13) == bytes.prefix(13))
        #expect(TestServer.deterministicBytes(count: 1000, seed: 1) != bytes)
        #expect(Set(bytes).count > 200)
        #expect(TestServer.deterministicBytes(count: -1).isEmpty)
    }
}
