import CourierTestServer
import Foundation
import Testing

/// `/sse` and `/sse/endless-line`: the event streams the server-sent events tests read.
@Suite struct EventStreamRoutesTests {
    @Test func theEventStreamSendsItsEventsWithEveryLineEnd() async throws {
        try await withServer { server in
            let response = try await fetch(server, "/sse?count=3&interval_ms=0")
            #expect(response.status == 200)
            #expect(response.value("Content-Type") == "text/event-stream; charset=utf-8")
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.body.starts(with: [0xEF, 0xBB, 0xBF]))
            #expect(text.contains("id: 1\r\nevent: tick\r\n"))
            #expect(text.contains("id: 2\revent: tick\r"))
            #expect(text.contains("id: 3\nevent: tick\n"))
            #expect(text.hasSuffix("data: never dispatched, for no blank line follows\n"))
            #expect(try await fetch(server, "/sse?count=1001").status == 400)
            #expect(try await fetch(server, "/sse?chunk_size=0").status == 400)
        }
    }

    /// Past three 64 KiB chunks, the only line ends are the chunked framing's own: the line
    /// that began with `data: ` is still open.
    @Test func theEndlessLineNeverEndsItsLine() async throws {
        try await withServer { server in
            let (head, body) = try await RawConnection.with(server) { connection in
                try await connection.send("GET /sse/endless-line HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let head = try await connection.readHead()
                return (head, try await connection.read(count: 200_000))
            }
            #expect(head.value("Content-Type") == "text/event-stream")
            #expect(head.value("Transfer-Encoding") == "chunked")
            let data = Self.dechunked(body)
            #expect(data.count > 150_000)
            #expect(data.starts(with: Array("data: xxxx".utf8)))
            #expect(!data.contains(0x0A) && !data.contains(0x0D))
        }
    }

    /// The data of the complete chunks at the start of a chunked body's bytes.
    private static func dechunked(_ bytes: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var rest = bytes[...]
        while let end = rest.firstIndex(of: 0x0D),
              let size = Int(String(decoding: rest[..<end], as: UTF8.self), radix: 16),
              rest.distance(from: end, to: rest.endIndex) >= size + 4
        {
            let start = end + 2
            data += rest[start..<(start + size)]
            rest = rest[(start + size + 2)...]
        }
        return data
    }
}
