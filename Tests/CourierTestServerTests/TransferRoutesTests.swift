import CourierTestServer
import Foundation
import Testing

/// `/zeros` and `/sink`: a source and a sink of any size that cost the server no memory.
@Suite struct TransferRoutesTests {
    @Test func zerosHaveContentLengthAndOnlyZeros() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/zeros/200001")
            #expect(response.status == 200)
            #expect(response.value("Content-Length") == "200001")
            #expect(response.body == [UInt8](repeating: 0, count: 200_001))
            let empty = try await fetch(server, "/zeros/0")
            #expect(empty.value("Content-Length") == "0")
            #expect(empty.body.isEmpty)
        }
    }

    @Test func zerosAnnounceSixtyFourGibibytesWithoutMakingThem() async throws {
        try await withServer { server in
            let head = try await fetch(server, "/zeros/\(64 << 30)", method: "HEAD")
            #expect(head.value("Content-Length") == "\(64 << 30)")
            #expect(try await fetch(server, "/zeros/\((64 << 30) + 1)").status == 400)
            #expect(try await fetch(server, "/zeros/-1").status == 400)
        }
    }

    /// 80 MiB, past the 413 every other route gives at 64 MiB.
    /// A body paced by a pause after each chunk arrives whole and in order: the pause once
    /// sent a chunk twice when the flush before it let the socket drain at once.
    @Test func aBodyPacedByPausesArrivesWholeAndInOrder() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/range/3000000?seed=3&interval_ms=1")
            #expect(response.status == 200)
            let expected = [UInt8](TestServer.deterministicBytes(count: 3_000_000, seed: 3))
            let firstDifference = zip(response.body, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(response.body == expected, "\(response.body.count) bytes, first differing at \(firstDifference.map(String.init) ?? "none")")
        }
    }

    @Test func theSinkCountsABodyOfAnySize() async throws {
        try await withServer { server in
            let chunk = String(repeating: "a", count: 1 << 20)
            let response = try await RawConnection.with(server) { connection in
                try await connection.send("PUT /sink HTTP/1.1\r\nHost: a\r\nContent-Length: \(80 << 20)\r\n\r\n")
                for _ in 0..<80 { try await connection.send(chunk) }
                return try await connection.readResponse()
            }
            #expect(response.status == 200)
            #expect(try decode([String: Int].self, from: response.body) == ["bytes": 80 << 20])
            #expect(server.lastRequest?.path == "/sink")
            #expect(server.lastRequest?.body.isEmpty == true)
        }
    }

    @Test func theSinkCountsAChunkedBodyAndAnEmptyOne() async throws {
        try await withServer { server in
            let response = try await RawConnection.with(server) { connection in
                try await connection.send("POST /sink?x=1 HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
                try await connection.send("5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
                return try await connection.readResponse()
            }
            #expect(try decode([String: Int].self, from: response.body) == ["bytes": 11])
            let empty = try await fetch(server, "/sink")
            #expect(try decode([String: Int].self, from: empty.body) == ["bytes": 0])
        }
    }
}
