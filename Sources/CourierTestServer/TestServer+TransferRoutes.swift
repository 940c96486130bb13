import Foundation
import NIOCore
import NIOHTTP1

// Routes about how a body travels: size, chunking, compression, timing and truncation.
extension TestServer {
    static func bytes(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize), let seed = seed(request) else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize)"))
        }
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .deterministic(count: count, seed: seed, chunkSize: Reply.defaultChunkSize)
            )
        )
    }

    static func streamBytes(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize), let seed = seed(request) else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize)"))
        }
        var chunkSize = 10 * 1024
        if let text = request.query("chunk_size") {
            guard let parsed = Int(text), (1...maximumGeneratedBodySize).contains(parsed) else {
                return .reply(.badRequest("chunk_size must be 1...\(maximumGeneratedBodySize)"))
            }
            chunkSize = parsed
        }
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .deterministic(count: count, seed: seed, chunkSize: chunkSize),
                framing: .chunked
            )
        )
    }

    /// `count` zero bytes with `Content-Length`, up to 64 GiB, written a piece at a time as the
    /// socket drains: a body of any size that costs the server no memory.
    static func zeros(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumZerosBodySize) else {
            return .reply(.badRequest("count must be 0...\(maximumZerosBodySize)"))
        }
        let unit = zeroUnit
        let remainder = ByteBuffer(repeating: 0, count: count % unit.readableBytes)
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .repeated(prefix: ByteBuffer(), unit: unit, times: count / unit.readableBytes, suffix: remainder)
            )
        )
    }

    /// Largest body `/zeros` will produce: 64 GiB.
    static let maximumZerosBodySize = 64 << 30

    static let zeroUnit = ByteBuffer(repeating: 0, count: Reply.defaultChunkSize)

    /// The answer to a request to `/sink`, whose body was counted and dropped as it arrived:
    /// `{"bytes": n}`.
    static func sink(_ request: RouteRequest) -> RouteAction {
        .reply(.json(["bytes": request.discardedBodyBytes]))
    }

    static func gzip(_ request: RouteRequest) -> RouteAction {
        compressed(request, encoding: "gzip") { Gzip.compress($0, format: .gzip) }
    }

    static func deflate(_ request: RouteRequest) -> RouteAction {
        compressed(request, encoding: "deflate") { Gzip.compress($0, format: .zlib) }
    }

    static func brotli(_ request: RouteRequest) -> RouteAction {
        compressed(request, encoding: "br", Brotli.compress)
    }

    static func zstd(_ request: RouteRequest) -> RouteAction {
        compressed(request, encoding: "zstd", Zstd.compress)
    }

    static func delay(_ request: RouteRequest) -> RouteAction {
        guard let seconds = request.parameters["seconds"].flatMap(Double.init), (0...30).contains(seconds) else {
            return .reply(.badRequest("delay must be 0...30 seconds"))
        }
        let echo = Reply.json(Echo(request.recorded, method: request.method))
        return .delayed(.nanoseconds(Int64(seconds * 1_000_000_000)), echo)
    }

    /// One byte at once, then one more after each interval: a response that never goes quiet
    /// long enough for an idle timeout, so only a total deadline ends it early.
    static func drip(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize) else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize)"))
        }
        var milliseconds: Int64 = 1000
        if let text = request.query("interval_ms") {
            guard let parsed = Int64(text), (1...60_000).contains(parsed) else {
                return .reply(.badRequest("interval_ms must be 1...60000"))
            }
            milliseconds = parsed
        }
        var reply = Reply(
            status: .ok,
            headers: ["Content-Type": "application/octet-stream"],
            body: .deterministic(count: count, seed: 0, chunkSize: 1)
        )
        reply.chunkInterval = .milliseconds(milliseconds)
        return .reply(reply)
    }

    static func truncate(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize) else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize)"))
        }
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .deterministic(count: count / 2, seed: 0, chunkSize: Reply.defaultChunkSize),
                framing: .truncated(declaredLength: count)
            )
        )
    }

    /// The optional `seed` query parameter; `nil` only when it is present but not a `UInt64`.
    private static func seed(_ request: RouteRequest) -> UInt64? {
        guard let text = request.query("seed") else { return 0 }
        return UInt64(text)
    }

    private static func compressed(
        _ request: RouteRequest, encoding: String, _ compress: ([UInt8]) -> [UInt8]?
    ) -> RouteAction {
        let echo = Echo(request.recorded, method: request.method)
        guard let json = Reply.encodeJSON(echo), let body = compress(json) else {
            return .reply(.error(.internalServerError, "compression failed"))
        }
        let headers: HTTPHeaders = ["Content-Type": "application/json", "Content-Encoding": encoding]
        return .reply(Reply(status: .ok, headers: headers, body: .buffer(ByteBuffer(bytes: body))))
    }

    /// A chunked body, `hello world`, followed by a trailer section with `X-Checksum: 5eb63bbe`
    /// and `X-Trailer-Count: 2` (RFC 9112 §7.1.2), announced by a `Trailer` field. Written as
    /// bytes since NIO's encoder has no trailers for a route to ask for.
    static func trailers(_ request: RouteRequest) -> RouteAction {
        .raw(RawReply(
            lines: ["HTTP/1.1 200 OK", "Content-Type: text/plain", "Transfer-Encoding: chunked", "Trailer: X-Checksum, X-Trailer-Count"],
            text: "5\r\nhello\r\n6\r\n world\r\n0\r\nX-Checksum: 5eb63bbe\r\nX-Trailer-Count: 2\r\n\r\n"
        ))
    }
}
