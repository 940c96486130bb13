import CourierTestServer
import Foundation
import Testing

/// The misbehaving but well-formed routes, read off the wire. Every connection has
/// `RawConnection`'s watchdog, and the suite a time limit, so a route that hangs fails.
@Suite(.timeLimit(.minutes(5))) struct FaultRoutesTests {
    @Test func infiniteCloseDelimitedHasNeitherLengthNorChunking() async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send("GET /infinite/close-delimited HTTP/1.1\r\nHost: a\r\n\r\n")
                let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
                #expect(try await connection.read(count: head.utf8.count) == Array(head.utf8))
                // Far more than the socket buffers hold: the server goes on writing as it is read.
                let body = try await connection.read(count: 8 << 20)
                #expect(body.allSatisfy { $0 == 0 })
            }
        }
    }

    @Test func infiniteCloseDelimitedSendsOnlyTheHeadToHead() async throws {
        try await withServer { server in
            let received = try await RawConnection.with(server) { connection in
                try await connection.send("HEAD /infinite/close-delimited HTTP/1.1\r\nHost: a\r\n\r\n")
                return try await connection.readToEnd()
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nConnection: close\r\n\r\n"
            #expect(received == Array(head.utf8))
        }
    }

    @Test func dripSendsOneBytePerInterval() async throws {
        try await withServer { server in
            let clock = ContinuousClock()
            try await RawConnection.with(server) { connection in
                let sent = clock.now
                try await connection.send("GET /drip/5?interval_ms=200 HTTP/1.1\r\nHost: a\r\n\r\n")
                let head = try await connection.readHead()
                #expect(head.value("Content-Length") == "5")
                let body = try await connection.read(count: 5)
                #expect(Data(body) == TestServer.deterministicBytes(count: 5))
                // The last byte cannot leave before four intervals have passed since the request
                // arrived. Only a lower bound: timers never fire early, but a loaded machine runs
                // late, and a slow reader finds several bytes waiting at once.
                #expect(clock.now - sent >= .milliseconds(800))
                // The connection is kept and answers the next request.
                try await connection.send("GET /status/204 HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try await connection.readResponse().status == 204)
            }
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    /// Told apart by what the connection reads, not by how long it took: a drip that went on
    /// after the shutdown delivers the other 99 bytes by 100 s, before the connection's own 200 s
    /// watchdog would cut the read short.
    @Test func dripEndsWhenTheServerShutsDown() async throws {
        let server = try await TestServer.start()
        try await RawConnection.with(server, timeout: .seconds(200)) { connection in
            try await connection.send("GET /drip/100?interval_ms=1000 HTTP/1.1\r\nHost: a\r\n\r\n")
            _ = try await connection.readHead()
            _ = try await connection.read(count: 1)
            try await server.shutdown()
            // The byte read above is one of the 100.
            #expect(try await connection.readToEnd().count < 99)
        }
    }

    @Test(arguments: ["/drip/-1", "/drip/5?interval_ms=0", "/drip/5?interval_ms=60001", "/drip/5?interval_ms=x"])
    func dripRejectsBadParameters(path: String) async throws {
        #expect(try await withServer { try await fetch($0, path) }.status == 400)
    }

    @Test func interimResponsesPrecedeTheFinalOneOnAKeptConnection() async throws {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send("GET /interim/103,100,150 HTTP/1.1\r\nHost: a\r\n\r\n")
                let interim = "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
                    + "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 150 \r\n\r\n"
                #expect(try await connection.read(count: interim.utf8.count) == Array(interim.utf8))
                let final = try await connection.readResponse()
                #expect(final.status == 200)
                #expect(try decode(Echo.self, from: final.body).path == "/interim/103,100,150")
                try await connection.send("GET /status/204 HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(try await connection.readResponse().status == 204)
            }
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    @Test func http10ClientsGetNoInterimResponses() async throws {
        try await withServer { server in
            let head = try await RawConnection.with(server) { connection in
                try await connection.send("GET /interim/103 HTTP/1.0\r\n\r\n")
                return try await connection.readHead()
            }
            #expect(head.status == 200)
        }
    }

    @Test(arguments: [
        "/interim/101", "/interim/99", "/interim/200", "/interim/abc", "/interim/100,", "/interim/",
        "/interim/" + Array(repeating: "100", count: 101).joined(separator: ","),
    ])
    func interimRejectsBadCodes(path: String) async throws {
        #expect(try await withServer { try await fetch($0, path) }.status == 400)
    }

    @Test func longHeaderIsOneLineOfTheGivenSize() async throws {
        let response = try await withServer { try await fetch($0, "/long-header/200") }
        #expect(response.status == 200)
        #expect(response.values("X-Long") == [String(repeating: "a", count: 200 * 1024)])
    }

    @Test func longLocationRedirectsToGetWithPadding() async throws {
        let response = try await withServer { try await fetch($0, "/long-location/100") }
        #expect(response.status == 302)
        let location = try #require(response.value("Location"))
        #expect(location.utf8.count == 100 * 1024)
        #expect(location.hasPrefix("/get?pad=aaaa"))
        #expect(location.dropFirst("/get?pad=".count).allSatisfy { $0 == "a" })
    }

    @Test(arguments: ["/long-header/0", "/long-header/1025", "/long-location/x", "/long-location/-1"])
    func longHeadersRejectBadSizes(path: String) async throws {
        #expect(try await withServer { try await fetch($0, path) }.status == 400)
    }
}
