import CourierTestServer
import Foundation
import Testing

/// `/flaky`, read off the wire: its failures, then its echo, counted per key.
@Suite(.timeLimit(.minutes(5))) struct RetryRoutesTests {
    @Test func theFirstRequestsForAKeyFailAndTheRestAreEchoed() async throws {
        try await withServer { server in
            let first = try await fetch(server, "/flaky/k/2?retry_after=3")
            #expect(first.status == 503)
            #expect(first.value("Retry-After") == "3")
            #expect(first.value("X-Visit") == "1")
            // Another key counts on its own.
            #expect(try await fetch(server, "/flaky/other/1?status=429").status == 429)
            let second = try await fetch(server, "/flaky/k/2?status=500")
            #expect(second.status == 500)
            #expect(second.value("Retry-After") == nil)
            let third = try await fetch(server, "/flaky/k/2")
            #expect(third.status == 200)
            #expect(third.value("X-Visit") == "3")
            #expect(try decode(Echo.self, from: third.body).path == "/flaky/k/2")
            #expect(server.visits("k") == 3)
            #expect(server.visits("other") == 1)
            server.forgetVisits("k")
            #expect(try await fetch(server, "/flaky/k/2").status == 503)
        }
    }

    @Test func aCloseFaultClosesWithoutAWord() async throws {
        try await withServer { server in
            let received = try await RawConnection.with(server) { connection in
                try await connection.send("GET /flaky/c/1?fault=close HTTP/1.1\r\nHost: a\r\n\r\n")
                return try await connection.readToEnd()
            }
            #expect(received.isEmpty)
            #expect(try await fetch(server, "/flaky/c/1?fault=close").status == 200)
        }
    }

    @Test(arguments: ["/flaky/k/-1", "/flaky/k/x", "/flaky/k/1?status=200", "/flaky/k/1?status=abc", "/flaky/k/1?status=600"])
    func badParametersAreRefusedWith400(_ path: String) async throws {
        try await withServer { server in
            let response = try await fetch(server, path)
            #expect(response.status == 400)
            #expect(server.visits("k") == 0)
        }
    }
}
