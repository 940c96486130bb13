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
              let milliseconds = queryInteger(request, "interval_ms", default: 10, in: 0...300_000)
        else {
            return .reply(.badRequest("count must be 0...1000, chunk_size 1...\(Reply.defaultChunkSize), interval_ms 0...300000"))
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

    /// `/sse/resumable/{key}`: events `1...count` (default 6, at most 1000) with `id: n` and
    /// `data: n`, `per_connection` (default 2) to a request, after which the stream ends, as an
    /// `EventSource` reconnecting with `Last-Event-ID` sees a server that drops it now and then.
    ///
    /// A request with `Last-Event-ID: n` gets the events after `n`; once none are left, the
    /// answer is `after_last` (default 204, 200...599) with no body, and with `Retry-After:
    /// retry_after` when `retry_after` is given. `retry_ms`, when given,
    /// opens each stream with `retry: retry_ms`. With `fault=lose` the connection is closed
    /// before the chunked body's end, a lost connection rather than a stream that ended.
    /// Every request counts as a visit of `{key}:{Last-Event-ID}` (`none` with no field), so a
    /// test can tell which IDs arrived and how often.
    static func serverSentEventsResumable(_ request: RouteRequest) -> RouteAction {
        guard let key = request.parameters["key"], !key.isEmpty,
              let count = queryInteger(request, "count", default: 6, in: 0...1000),
              let perConnection = queryInteger(request, "per_connection", default: 2, in: 1...1000),
              let afterLast = queryInteger(request, "after_last", default: 204, in: 200...599),
              let retry = queryInteger(request, "retry_ms", default: -1, in: 0...3_600_000)
        else {
            return .reply(.badRequest("key must be given, count 0...1000, per_connection 1...1000, after_last 200...599, retry_ms 0...3600000"))
        }
        let lastEventID = request.recorded.value(for: "Last-Event-ID")
        _ = request.visit("\(key):\(lastEventID ?? "none")")
        guard let last = lastEventID.map({ Int($0) }) ?? 0, (0...count).contains(last) else {
            return .reply(.badRequest("Last-Event-ID must be an event ID of this stream"))
        }
        guard last < count else {
            let headers: HTTPHeaders = request.query("retry_after").map { ["Retry-After": $0] } ?? [:]
            return .reply(.empty(HTTPResponseStatus(statusCode: afterLast), headers: headers))
        }
        var stream = retry >= 0 ? "retry: \(retry)\n\n" : ""
        for index in (last + 1)...min(last + perConnection, count) {
            stream += "id: \(index)\ndata: \(index)\n\n"
        }
        guard request.query("fault") == "lose" else {
            return .reply(
                Reply(
                    status: .ok,
                    headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"],
                    body: .buffer(ByteBuffer(string: stream)),
                    framing: .chunked
                )
            )
        }
        let chunk = String(stream.utf8.count, radix: 16) + "\r\n" + stream + "\r\n"
        return .raw(
            RawReply(
                lines: ["HTTP/1.1 200 OK", "Content-Type: text/event-stream", "Transfer-Encoding: chunked"],
                body: .buffer(ByteBuffer(string: chunk))
            )
        )
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

    /// `/sse/flood/{bytes}`: events of 1 KiB each (`data: ` and 1,016 `x`), `bytes` rounded
    /// down to whole 64 KiB blocks of them, written as the socket drains: a long stream whose
    /// reader's memory must not grow with it.
    static func serverSentEventsFlood(_ request: RouteRequest) -> RouteAction {
        guard let bytes = request.integer("bytes", in: 0...(1 << 40)) else { return .reply(.badRequest("bytes must be 0...2^40")) }
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "text/event-stream"],
                body: .repeated(prefix: ByteBuffer(), unit: floodUnit, times: bytes / floodUnit.readableBytes, suffix: ByteBuffer()),
                framing: .chunked
            )
        )
    }

    private static let floodUnit: ByteBuffer = {
        let event = "data: " + String(repeating: "x", count: 1016) + "\n\n"
        return ByteBuffer(string: String(repeating: event, count: 64))
    }()

    /// The query parameter `name` as an integer within `range`, `fallback` when absent, or `nil`
    /// when present but not such an integer: the caller answers 400.
    private static func queryInteger(_ request: RouteRequest, _ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text = request.query(name) else { return fallback }
        guard let value = Int(text), range.contains(value) else { return nil }
        return value
    }
}
