import NIOCore
import NIOHTTP1

// Routes that answer `text/event-stream`, for the server-sent events tests.
extension TestServer {
    /// `count` events (default 3, at most 1000), chunked every `chunk_size` bytes (default 5) with
    /// `interval_ms` (default 10) between chunks, so that the cuts fall inside lines, between a
    /// CR and its LF and inside multi-byte characters.
    ///
    /// The stream opens with a byte order mark, a comment and `retry: 1500`. Event `n` has
    /// `id: n`, `event: tick` and two `data` lines, `{"index":n,` and `"text":"café 😀"}`, which
    /// join into JSON; its lines end with LF, CRLF or CR in turn (`n % 3`). A last `data` line
    /// follows with no blank line after it: an event a client must never dispatch.
    static func serverSentEvents(_ request: RouteRequest) -> RouteAction {
        guard let count = queryInteger(request, "count", default: 3, in: 0...1000),
              let chunkSize = queryInteger(request, "chunk_size", default: 5, in: 1...Reply.defaultChunkSize),
              let milliseconds = queryInteger(request, "interval_ms", default: 10, in: 0...10_000)
        else {
            return .reply(.badRequest("count must be 0...1000, chunk_size 1...\(Reply.defaultChunkSize), interval_ms 0...10000"))
        }
        var stream = "\u{FEFF}: events from the Courier test server\nretry: 1500\n\n"
        for index in stride(from: 1, through: count, by: 1) {
            let end = ["\n", "\r\n", "\r"][index % 3]
            stream += "id: \(index)\(end)event: tick\(end)"
            stream += "data: {\"index\":\(index),\(end)data: \"text\":\"caf\u{E9} \u{1F600}\"}\(end)\(end)"
        }
        stream += "data: never dispatched, for no blank line follows\n"
        var reply = Reply(
            status: .ok,
            headers: ["Content-Type": "text/event-stream; charset=utf-8", "Cache-Control": "no-store"],
            body: .pieces(ByteBuffer(string: stream), size: chunkSize),
            framing: .chunked
        )
        reply.chunkInterval = milliseconds > 0 ? .milliseconds(Int64(milliseconds)) : nil
        return .reply(reply)
    }

    /// `data: ` and then `x` for ever, with no line end: a stream that only a bound on a line's
    /// length stops. 64 GiB, written as the socket drains.
    static func serverSentEventsEndlessLine(_ request: RouteRequest) -> RouteAction {
        .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "text/event-stream"],
                body: .repeated(prefix: ByteBuffer(string: "data: "), unit: endlessLineUnit, times: 1 << 20, suffix: ByteBuffer()),
                framing: .chunked
            )
        )
    }

    private static let endlessLineUnit = ByteBuffer(repeating: UInt8(ascii: "x"), count: Reply.defaultChunkSize)

    /// The query parameter `name` as an integer within `range`, `fallback` when absent, or `nil`
    /// when present but not such an integer: the caller answers 400.
    private static func queryInteger(_ request: RouteRequest, _ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text = request.query(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
