import CourierTestServer
import Testing

/// The raw routes, checked byte for byte: what a hostile server sends is the whole point, so
/// nothing here parses it. Every connection has `RawConnection`'s watchdog, and the suite a
/// time limit, so a route that hangs fails.
@Suite(.timeLimit(.minutes(5))) struct HostileRoutesTests {
    @Test(arguments: [
        ("/content-length/conflicting", "Content-Length: 5\r\nContent-Length: 11\r\n"),
        ("/content-length/repeated", "Content-Length: 11\r\nContent-Length: 11\r\n"),
        ("/content-length/list", "Content-Length: 11, 11\r\n"),
        ("/header-value/bare-cr", "X-Bare-CR: before\rafter\r\nContent-Length: 11\r\n"),
        ("/header-value/bare-lf", "X-Bare-LF: before\nafter\r\nContent-Length: 11\r\n"),
        ("/header-value/nul", "X-NUL: before\0after\r\nContent-Length: 11\r\n"),
    ])
    func hostileFieldsAreSentAsWritten(path: String, fields: String) async throws {
        let expected = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\(fields)Connection: close\r\n\r\nhello world"
        #expect(try await received(path) == Array(expected.utf8))
    }

    @Test func theControlBytesAreSingleBytes() async throws {
        // Swift folds "\r\n" into one Character; these check the bytes, not the Characters.
        let bareCR = try await received("/header-value/bare-cr")
        #expect(bareCR.contains(subsequence: Array("before".utf8) + [0x0D] + Array("after".utf8)))
        let nul = try await received("/header-value/nul")
        #expect(nul.contains(subsequence: Array("before".utf8) + [0x00] + Array("after".utf8)))
    }

    @Test(arguments: [
        ("/status-line/ssh-banner", "SSH-2.0-OpenSSH_9.2\r\n"),
        ("/status-line/http09", "hello world"),
        ("/status-line/non-numeric", "HTTP/1.1 abc OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
    ])
    func invalidStatusLinesAreSentAsWritten(path: String, expected: String) async throws {
        #expect(try await received(path) == Array(expected.utf8))
    }

    @Test(arguments: [
        ("/status-line/lowercase-name", "Http/1.1 200 OK"),
        ("/status-line/no-reason", "HTTP/1.1 200"),
        ("/status-line/empty-reason", "HTTP/1.1 200 "),
    ])
    func disputedStatusLinesAreSentAsWritten(path: String, statusLine: String) async throws {
        let expected = "\(statusLine)\r\nContent-Type: text/plain\r\nContent-Length: 11\r\nConnection: close\r\n\r\nhello world"
        #expect(try await received(path) == Array(expected.utf8))
    }

    @Test func headGetsTheHostileHeadWithoutTheBody() async throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\nContent-Length: 11\r\n"
            + "Connection: close\r\n\r\n"
        #expect(try await received("/content-length/conflicting", method: "HEAD") == Array(head.utf8))
    }

    @Test func theConnectionClosesEvenWhenTheClientAskedToKeepIt() async throws {
        try await withServer { server in
            let received = try await RawConnection.with(server) { connection in
                // A second request that would be answered if the connection were kept.
                try await connection.send(
                    "GET /content-length/repeated HTTP/1.1\r\nHost: a\r\n\r\nGET /get HTTP/1.1\r\nHost: a\r\n\r\n"
                )
                return try await connection.readToEnd()
            }
            #expect(String(decoding: received, as: UTF8.self).hasSuffix("\r\n\r\nhello world"))
            #expect(server.acceptedConnectionCount == 1)
        }
    }

    /// Everything the server sends for `path` until it closes the connection.
    private func received(_ path: String, method: String = "GET") async throws -> [UInt8] {
        try await withServer { server in
            try await RawConnection.with(server) { connection in
                try await connection.send("\(method) \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
                return try await connection.readToEnd()
            }
        }
    }
}

extension Array where Element: Equatable {
    func contains(subsequence: [Element]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { start in
            self[start..<(start + subsequence.count)].elementsEqual(subsequence)
        }
    }
}
