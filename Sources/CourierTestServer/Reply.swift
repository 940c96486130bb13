import Foundation
import NIOCore
import NIOHTTP1

/// A response as a route describes it; ``HTTPConnectionHandler`` turns it into bytes.
///
/// Routes never touch the channel, so each stays a few lines of pure code and a new fault
/// mode is usually a new ``Framing`` or ``Body`` case plus a route.
struct Reply: Sendable {
    /// Where the body's bytes come from.
    enum Body: Sendable {
        case buffer(ByteBuffer)
        /// `buffer` cut into pieces of `size` bytes, one per chunk: with ``Reply/chunkInterval``,
        /// a body that arrives split wherever the size falls.
        case pieces(ByteBuffer, size: Int)
        /// ``DeterministicBytes``, produced `chunkSize` bytes at a time so large bodies are
        /// generated as the socket drains instead of all up front.
        case deterministic(count: Int, seed: UInt64, chunkSize: Int)
        /// Bytes `range` of the body ``deterministic(count:seed:chunkSize:)`` would send whole
        /// for `seed`, for a byte-range answer, produced `chunkSize` bytes at a time.
        case deterministicRange(Range<Int>, seed: UInt64, chunkSize: Int)
        /// `chunk` again and again, forever: only where no length is announced (``Framing/chunked``,
        /// or a ``RawReply`` that ends with the connection). Written as the socket drains, so it
        /// costs the server no memory.
        case endless(chunk: ByteBuffer)
        /// `prefix`, then `unit` `times` times, then `suffix`: a body of gigabytes described by a
        /// few small buffers, as ``CompressionBomb``s are. Runs of whole units are written about
        /// ``Reply/defaultChunkSize`` at a time.
        case repeated(prefix: ByteBuffer, unit: ByteBuffer, times: Int, suffix: ByteBuffer)

        var count: Int {
            switch self {
            case .buffer(let buffer), .pieces(let buffer, _): buffer.readableBytes
            case .deterministic(let count, _, _): count
            case .deterministicRange(let range, _, _): range.count
            case .endless: Int.max
            case .repeated(let prefix, let unit, let times, let suffix):
                prefix.readableBytes + unit.readableBytes * times + suffix.readableBytes
            }
        }

        /// The next piece of the body starting at `offset`, or `nil` once it is all sent.
        func chunk(at offset: Int, allocator: ByteBufferAllocator) -> ByteBuffer? {
            guard offset < count else { return nil }
            switch self {
            case .buffer(let buffer):
                return buffer.getSlice(at: buffer.readerIndex + offset, length: buffer.readableBytes - offset)
            case .pieces(let buffer, let size):
                return buffer.getSlice(at: buffer.readerIndex + offset, length: min(max(size, 1), buffer.readableBytes - offset))
            case .deterministic(let count, let seed, let chunkSize):
                let length = min(max(chunkSize, 1), count - offset)
                return DeterministicBytes.buffer(count: length, offset: offset, seed: seed, allocator: allocator)
            case .deterministicRange(let range, let seed, let chunkSize):
                let length = min(max(chunkSize, 1), range.count - offset)
                return DeterministicBytes.buffer(count: length, offset: range.lowerBound + offset, seed: seed, allocator: allocator)
            case .endless(let chunk):
                return chunk.readableBytes > 0 ? chunk : nil
            case .repeated(let prefix, let unit, let times, let suffix):
                let runStart = prefix.readableBytes
                let runEnd = runStart + unit.readableBytes * times
                if offset < runStart {
                    return prefix.getSlice(at: prefix.readerIndex + offset, length: runStart - offset)
                }
                if offset < runEnd {
                    return Self.run(of: unit, from: offset - runStart, to: runEnd - runStart, allocator: allocator)
                }
                return suffix.getSlice(at: suffix.readerIndex + offset - runEnd, length: count - offset)
            }
        }

        /// Bytes `start..<end` of `unit` repeated, cut to ``Reply/defaultChunkSize`` (or one
        /// unit, if that is longer): a unit is often under a kilobyte, and one write per unit
        /// would cost a syscall per kilobyte of a multi-gigabyte body.
        private static func run(of unit: ByteBuffer, from start: Int, to end: Int, allocator: ByteBufferAllocator)
            -> ByteBuffer
        {
            let length = min(end - start, max(Reply.defaultChunkSize, unit.readableBytes))
            var run = allocator.buffer(capacity: length)
            var position = start
            while run.readableBytes < length {
                let inUnit = position % unit.readableBytes
                let piece = min(unit.readableBytes - inUnit, length - run.readableBytes)
                if let slice = unit.getSlice(at: unit.readerIndex + inUnit, length: piece) {
                    run.writeImmutableBuffer(slice)
                }
                position += piece
            }
            return run
        }
    }

    /// How the body's end is signalled to the client.
    enum Framing: Sendable {
        /// `Content-Length` equal to the body's size.
        case contentLength
        /// `Transfer-Encoding: chunked`, one chunk per ``Body/chunk(at:allocator:)``.
        case chunked
        /// Announces `declaredLength` bytes, sends only the body, then closes the connection
        /// without finishing the response.
        case truncated(declaredLength: Int)
        /// Announces `declaredLength` bytes, sends only the body, then says nothing more and
        /// keeps the connection open: a server stalled mid-body.
        case stalled(declaredLength: Int)
    }

    /// A 1xx response sent ahead of the final one.
    struct Interim: Sendable {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders = [:]
    }

    var status: HTTPResponseStatus
    var headers: HTTPHeaders
    var body: Body
    var framing: Framing = .contentLength
    /// Sent before the head, in order; left out for HTTP/1.0 clients, which do not expect them.
    var interim: [Interim] = []
    /// A pause after each body chunk before the next, for a body that trickles in; `nil` sends
    /// the body as fast as the socket drains.
    var chunkInterval: TimeAmount?
}

extension Reply {
    static let defaultChunkSize = 64 * 1024

    static func empty(_ status: HTTPResponseStatus, headers: HTTPHeaders = [:]) -> Reply {
        Reply(status: status, headers: headers, body: .buffer(ByteBuffer()))
    }

    /// `value` as JSON with sorted keys, so equal values give byte-identical bodies.
    static func json(_ value: some Encodable, status: HTTPResponseStatus = .ok, headers: HTTPHeaders = [:]) -> Reply {
        guard let bytes = encodeJSON(value) else {
            return error(.internalServerError, "could not encode the response")
        }
        var headers = headers
        if !headers.contains(name: "Content-Type") {
            headers.add(name: "Content-Type", value: "application/json")
        }
        return Reply(status: status, headers: headers, body: .buffer(ByteBuffer(bytes: bytes)))
    }

    /// A JSON `{"error": message}` body, the shape of every failure the server reports itself.
    static func error(_ status: HTTPResponseStatus, _ message: String) -> Reply {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        let bytes = encodeJSON(["error": message]) ?? Array(#"{"error":"unknown"}"#.utf8)
        return Reply(status: status, headers: headers, body: .buffer(ByteBuffer(bytes: bytes)))
    }

    static func badRequest(_ message: String) -> Reply {
        error(.badRequest, message)
    }

    static func encodeJSON(_ value: some Encodable) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { Array($0) }
    }
}
