import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

// Routes that misbehave on purpose: silence, endless or explosive bodies, oversized headers.
extension TestServer {
    static func stall(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize / 2) else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize / 2)"))
        }
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .deterministic(count: count, seed: 0, chunkSize: Reply.defaultChunkSize),
                framing: .stalled(declaredLength: 2 * count)
            )
        )
    }

    static func infinite(_ request: RouteRequest) -> RouteAction {
        let chunk = ByteBuffer(repeating: 0, count: Reply.defaultChunkSize)
        return .reply(
            Reply(
                status: .ok,
                headers: ["Content-Type": "application/octet-stream"],
                body: .endless(chunk: chunk),
                framing: .chunked
            )
        )
    }

    /// Like ``infinite(_:)`` but with no framing at all, the body ending only with the
    /// connection. Raw, because NIO's encoder would chunk an HTTP/1.1 body with no length.
    static func infiniteCloseDelimited(_ request: RouteRequest) -> RouteAction {
        let lines = ["HTTP/1.1 200 OK", "Content-Type: application/octet-stream", "Connection: close"]
        let chunk = ByteBuffer(repeating: 0, count: Reply.defaultChunkSize)
        return .raw(RawReply(lines: lines, body: .endless(chunk: chunk)))
    }

    static func gzipBomb(_ request: RouteRequest) -> RouteAction {
        guard let mebibytes = request.integer("mib", in: 1...1024) else {
            return .reply(.badRequest("mib must be 1...1024"))
        }
        guard let body = GzipBombCache.shared.bomb(mebibytes: mebibytes) else {
            return .reply(.error(.internalServerError, "compression failed"))
        }
        let headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Content-Encoding": "gzip"]
        return .reply(Reply(status: .ok, headers: headers, body: .buffer(body)))
    }

    /// `codes` (comma-separated, 100...199 but not 101, at most 100) as 1xx responses, then an
    /// ``Echo``. A 103 carries a `Link` as real Early Hints do; 101 is left out because it
    /// switches protocols rather than preceding a response.
    static func interim(_ request: RouteRequest) -> RouteAction {
        let codes = (request.parameters["codes"] ?? "").split(separator: ",", omittingEmptySubsequences: false)
        var interim: [Reply.Interim] = []
        for code in codes.compactMap({ Int($0) }) where (100...199).contains(code) && code != 101 {
            interim.append(
                code == 103
                    ? Reply.Interim(status: earlyHints, headers: ["Link": "</style.css>; rel=preload; as=style"])
                    : Reply.Interim(status: HTTPResponseStatus(statusCode: code))
            )
        }
        guard interim.count == codes.count, codes.count <= 100 else {
            return .reply(.badRequest("codes must be 1 to 100 of 100...199 but 101, comma-separated"))
        }
        var reply = Reply.json(Echo(request.recorded, method: request.method))
        reply.interim = interim
        return .reply(reply)
    }

    // NIO names 102 but not 103, and would send it with an empty reason phrase.
    private static let earlyHints = HTTPResponseStatus(statusCode: 103, reasonPhrase: "Early Hints")

    static func bomb(_ request: RouteRequest) -> RouteAction {
        guard let encoding = request.parameters["encoding"].flatMap(CompressionBomb.Encoding.init(rawValue:)) else {
            return .reply(.badRequest("encoding must be gzip, deflate, br or zstd"))
        }
        let limit = CompressionBomb.maximumMebibytes
        guard let mebibytes = request.integer("mib", in: 1...limit) else {
            return .reply(.badRequest("mib must be 1...\(limit)"))
        }
        guard let body = CompressionBomb.body(encoding, mebibytes: mebibytes) else {
            return .reply(.error(.internalServerError, "compression failed"))
        }
        let headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Content-Encoding": encoding.rawValue]
        return .reply(Reply(status: .ok, headers: headers, body: body))
    }

    static func manyHeaders(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...100_000) else {
            return .reply(.badRequest("count must be 0...100000"))
        }
        var headers = HTTPHeaders()
        headers.reserveCapacity(count + 2)
        for index in 0..<count {
            headers.add(name: "X-Header-\(index)", value: "value-\(index)")
        }
        return .reply(.empty(.ok, headers: headers))
    }

    /// One `X-Long` field whose value is `kib` KiB of `a`. One line, not many: clients limit a
    /// single line (libcurl to 100 KiB) apart from the whole head, and fail differently.
    static func longHeader(_ request: RouteRequest) -> RouteAction {
        guard let kib = request.integer("kib", in: 1...maximumLongHeaderKiB) else {
            return .reply(.badRequest("kib must be 1...\(maximumLongHeaderKiB)"))
        }
        return .reply(.empty(.ok, headers: ["X-Long": String(repeating: "a", count: kib * 1024)]))
    }

    /// A 302 whose `Location` is `kib` KiB long: `/get?pad=` and then `a`s, so a client that
    /// took it would land on `/get`.
    static func longLocation(_ request: RouteRequest) -> RouteAction {
        guard let kib = request.integer("kib", in: 1...maximumLongHeaderKiB) else {
            return .reply(.badRequest("kib must be 1...\(maximumLongHeaderKiB)"))
        }
        let start = "/get?pad="
        let location = start + String(repeating: "a", count: kib * 1024 - start.utf8.count)
        return .reply(.empty(.found, headers: ["Location": location]))
    }

    static let maximumLongHeaderKiB = 1024
}

/// Gzip bombs by size, compressed once per process: a 1 GiB bomb takes seconds of zlib time and
/// is only ~1 MiB, so every later request (and every server) shares the bytes.
private final class GzipBombCache: Sendable {
    static let shared = GzipBombCache()

    private let bombs = NIOLockedValueBox<[Int: ByteBuffer]>([:])

    func bomb(mebibytes: Int) -> ByteBuffer? {
        if let cached = bombs.withLockedValue({ $0[mebibytes] }) { return cached }
        // Compressed outside the lock; two first requests racing both compress, one result wins.
        guard let bytes = Gzip.compressedZeros(count: mebibytes << 20) else { return nil }
        let buffer = ByteBuffer(bytes: bytes)
        return bombs.withLockedValue { bombs in
            if let existing = bombs[mebibytes] { return existing }
            bombs[mebibytes] = buffer
            return buffer
        }
    }
}
