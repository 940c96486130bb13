import CourierTestServer
import Foundation
import Testing

/// The misbehaving but well-formed routes, read off the wire. Every connection has
/// `RawConnection`'s watchdog, and the suite a time limit, so a route that hangs fails.
@Suite(.timeLimit(.minutes(1))) struct FaultRoutesTests {
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
}
