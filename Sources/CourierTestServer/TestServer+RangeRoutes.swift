import Foundation
import NIOCore
import NIOHTTP1

// Routes that answer byte-range requests (RFC 9110 §14), for resumable downloads: a
// representation with validators, and variants that ignore ranges, change between requests or
// lose the connection part-way.
extension TestServer {
    /// `count` bytes with a strong `ETag` and a `Last-Modified` a day before `Date`, honouring a
    /// single `Range: bytes=…` and `If-Range` as RFC 9110 §13.1.5 and §14 ask: 206 with
    /// `Content-Range`, 416 with `Content-Range: bytes */count` for a range past the end, 200
    /// for a missing, malformed or several-part range or an `If-Range` that does not match.
    ///
    /// The query changes one thing each: `seed=` the bytes (``DeterministicBytes``),
    /// `fill=zeros` zeros instead (cheap for gigabytes), `etag=weak` or `etag=none`,
    /// `last_modified=none`, `ignore_range=1` a 200 whatever was asked, `misplace=1` a 206 that
    /// starts at byte 0 whatever was asked, `cut_at=K` closes the connection once the bytes
    /// before offset `K` of the representation are sent (a response that starts at or past `K` is
    /// whole), and `interval_ms=I` pauses `I` ms after each 64 KiB of an answer that starts at
    /// byte 0, so a first download is still under way when a test acts and its resumption is not.
    static func rangeBytes(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumZerosBodySize), let seed = rangeSeed(request) else {
            return .reply(.badRequest("count must be 0...\(maximumZerosBodySize)"))
        }
        let entityTag: String? = switch request.query("etag") {
        case "none": nil
        case "weak": "W/\"range-\(count)-\(seed)\""
        default: "\"range-\(count)-\(seed)\""
        }
        let representation = RangedRepresentation(
            count: count, seed: seed, zeros: request.query("fill") == "zeros", entityTag: entityTag,
            lastModified: request.query("last_modified") == "none" ? nil : Self.rangeEpoch,
            interval: request.query("interval_ms").flatMap(Int64.init).map { min(max($0, 1), 60_000) }
        )
        return .reply(representation.reply(to: request))
    }

    /// As ``rangeBytes(_:)``, but each request for `key` is a new version of the
    /// representation: its bytes (the visit number is the seed), `ETag` and `Last-Modified` all
    /// change, so an `If-Range` from an earlier visit never matches. `cut_at=K` cuts the first
    /// visit's answer only, so the version that replaces it arrives whole.
    static func changingRangeBytes(_ request: RouteRequest) -> RouteAction {
        guard let count = request.integer("count", in: 0...maximumGeneratedBodySize), let key = request.parameters["key"] else {
            return .reply(.badRequest("count must be 0...\(maximumGeneratedBodySize)"))
        }
        let version = request.visit("range-changing-" + key)
        let representation = RangedRepresentation(
            count: count, seed: UInt64(version), zeros: false, entityTag: "\"\(key)-v\(version)\"",
            lastModified: Self.rangeEpoch.addingTimeInterval(TimeInterval(version) * 3600)
        )
        return .reply(representation.reply(to: request, cutting: version == 1))
    }

    /// The `Last-Modified` of the ranged routes: far enough before any `Date` to be a strong
    /// validator (RFC 9110 §8.8.2.2).
    static let rangeEpoch = Date(timeIntervalSince1970: 946_684_800)

    private static func rangeSeed(_ request: RouteRequest) -> UInt64? {
        guard let text = request.query("seed") else { return 0 }
        return UInt64(text)
    }
}

/// One version of a ranged route's body and its validators, and how it answers a request.
private struct RangedRepresentation {
    var count: Int
    var seed: UInt64
    var zeros: Bool
    var entityTag: String?
    var lastModified: Date?
    /// A pause after each chunk of the body, for a download still under way when a test acts.
    var interval: Int64?

    func reply(to request: RouteRequest, cutting: Bool = true) -> Reply {
        var headers: HTTPHeaders = ["Content-Type": "application/octet-stream", "Accept-Ranges": "bytes"]
        headers.add(name: "Date", value: HTTPDateText.format(Date()))
        if let entityTag { headers.add(name: "ETag", value: entityTag) }
        if let lastModified { headers.add(name: "Last-Modified", value: HTTPDateText.format(lastModified)) }
        let cut = cutting ? request.query("cut_at").flatMap(Int.init) : nil
        guard request.query("ignore_range") != "1", let asked = request.recorded.value(for: "Range"), honours(request) else {
            return body(0..<count, status: .ok, headers: headers, cut: cut)
        }
        switch Self.byteRange(asked, count: count) {
        case .whole:
            return body(0..<count, status: .ok, headers: headers, cut: cut)
        case .unsatisfiable:
            headers.add(name: "Content-Range", value: "bytes */\(count)")
            return Reply(status: .rangeNotSatisfiable, headers: headers, body: .buffer(ByteBuffer()))
        case .some(var range):
            if request.query("misplace") == "1" { range = 0..<range.count }
            headers.add(name: "Content-Range", value: "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(count)")
            return body(range, status: .partialContent, headers: headers, cut: cut)
        }
    }

    /// Whether the `If-Range` condition holds, or there is none (RFC 9110 §13.1.5): an entity
    /// tag matches by the strong comparison, a date only as the exact `Last-Modified` text.
    private func honours(_ request: RouteRequest) -> Bool {
        guard let condition = request.recorded.value(for: "If-Range") else { return true }
        if condition.hasPrefix("\"") { return entityTag.map { !$0.hasPrefix("W/") && $0 == condition } ?? false }
        return lastModified.map { HTTPDateText.format($0) == condition } ?? false
    }

    private func body(_ range: Range<Int>, status: HTTPResponseStatus, headers: HTTPHeaders, cut: Int?) -> Reply {
        let framing: Reply.Framing
        var sent = range
        if let cut, range.contains(cut), cut > range.lowerBound {
            sent = range.lowerBound..<cut
            framing = .truncated(declaredLength: range.count)
        } else {
            framing = .contentLength
        }
        let content: Reply.Body
        if zeros {
            let unit = TestServer.zeroUnit
            content = .repeated(
                prefix: ByteBuffer(), unit: unit, times: sent.count / unit.readableBytes,
                suffix: ByteBuffer(repeating: 0, count: sent.count % unit.readableBytes)
            )
        } else {
            content = .deterministicRange(sent, seed: seed, chunkSize: Reply.defaultChunkSize)
        }
        var reply = Reply(status: status, headers: headers, body: content, framing: framing)
        reply.chunkInterval = range.lowerBound == 0 ? interval.map { .milliseconds($0) } : nil
        return reply
    }

    /// What a `Range` field asks of a body: the whole of it, bytes that do not exist, or a range.
    private enum Asked { case whole, unsatisfiable, some(Range<Int>) }

    /// The bytes one `Range: bytes=first-[last]` or `bytes=-suffix` asks for, clipped to the
    /// body; `.unsatisfiable` when none of them exist; `.whole` for anything else, several
    /// ranges included, which a server may answer with the whole body.
    private static func byteRange(_ value: String, count: Int) -> Asked {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count)
        guard let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        let isDigits = { (text: Substring) in !text.isEmpty && text.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if first.isEmpty {
            guard isDigits(last), let suffix = Int(last), suffix > 0 else { return .whole }
            return count == 0 ? .unsatisfiable : .some(max(count - suffix, 0)..<count)
        }
        guard isDigits(first), let start = Int(first) else { return .whole }
        var end = count
        if !last.isEmpty {
            guard isDigits(last), let lastByte = Int(last), lastByte >= start else { return .whole }
            end = min(lastByte + 1, count)
        }
        return start < count ? .some(start..<end) : .unsatisfiable
    }
}
