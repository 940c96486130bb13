import Foundation
import NIOCore
import NIOHTTP1

// A route for HTTP caches (RFC 9111): a representation whose freshness and validators the
// query sets, that counts its visits and answers a matching precondition with 304.
extension TestServer {
    /// `/cache/{key}`: a body naming the visit (`visit N of KEY`, and `, variant V` with the
    /// value of the request field `Vary` names), counted under `cache-KEY`.
    ///
    /// The query sets the head: `cc=` the `Cache-Control` value, `expires=S` an `Expires` S
    /// seconds after `Date`, `age=S` an `Age`, `etag=T` an `ETag` of `"T"` (`etag=W/T` a weak
    /// one), `last_modified=1` a `Last-Modified` of ``rangeEpoch``, `vary=NAME` a `Vary`,
    /// `status=N` the status (200 by default), `bytes=N` a body of N deterministic bytes instead
    /// of the text (up to 100 MiB), `zeros=N` one of N zero bytes (up to 64 GiB, costing the
    /// server no memory), `changes=1` a new entity tag on every visit. A request whose
    /// `If-None-Match` holds the current tag, or whose `If-Modified-Since` is not before
    /// `Last-Modified`, gets 304 with the same head and `X-Visit`. Every answer carries
    /// `X-Visit: N`, and `X-Seen-If-None-Match` and `X-Seen-If-Modified-Since` with the
    /// preconditions the request carried, so a test sees what a cache sent.
    static func cacheable(_ request: RouteRequest) -> RouteAction {
        guard let key = request.parameters["key"] else { return .reply(.badRequest("no key")) }
        let visit = request.visit("cache-" + key)
        let now = Date()
        var headers: HTTPHeaders = ["Date": HTTPDateText.format(now), "X-Visit": String(visit)]
        for name in ["If-None-Match", "If-Modified-Since"] {
            if let value = request.recorded.value(for: name) { headers.add(name: "X-Seen-" + name, value: value) }
        }
        if let cacheControl = request.query("cc") { headers.add(name: "Cache-Control", value: cacheControl) }
        if let seconds = request.query("expires").flatMap(TimeInterval.init) {
            headers.add(name: "Expires", value: HTTPDateText.format(now + seconds))
        }
        if let age = request.query("age") { headers.add(name: "Age", value: age) }
        var entityTag: String?
        if var tag = request.query("etag") {
            if request.query("changes") == "1" { tag += "-\(visit)" }
            entityTag = tag.hasPrefix("W/") ? "W/\"\(tag.dropFirst(2))\"" : "\"\(tag)\""
        }
        if let entityTag { headers.add(name: "ETag", value: entityTag) }
        let lastModified = request.query("last_modified") == "1" ? rangeEpoch : nil
        if let lastModified { headers.add(name: "Last-Modified", value: HTTPDateText.format(lastModified)) }
        var variant: String?
        if let vary = request.query("vary") {
            headers.add(name: "Vary", value: vary)
            variant = request.recorded.value(for: vary) ?? "none"
        }
        if notModified(request, entityTag: entityTag, lastModified: lastModified) {
            return .reply(Reply(status: .notModified, headers: headers, body: .buffer(ByteBuffer())))
        }
        let code = request.query("status").flatMap(Int.init) ?? 200
        let status = (200...599).contains(code) ? HTTPResponseStatus(statusCode: code) : .ok
        if let count = request.query("bytes").flatMap(Int.init), (0...maximumGeneratedBodySize).contains(count) {
            headers.add(name: "Content-Type", value: "application/octet-stream")
            return .reply(Reply(status: status, headers: headers, body: .deterministic(count: count, seed: 0, chunkSize: Reply.defaultChunkSize)))
        }
        if let count = request.query("zeros").flatMap(Int.init), (0...maximumZerosBodySize).contains(count) {
            headers.add(name: "Content-Type", value: "application/octet-stream")
            let unit = zeroUnit
            let remainder = ByteBuffer(repeating: 0, count: count % unit.readableBytes)
            return .reply(Reply(status: status, headers: headers, body: .repeated(prefix: ByteBuffer(), unit: unit, times: count / unit.readableBytes, suffix: remainder)))
        }
        headers.add(name: "Content-Type", value: "text/plain")
        let text = "visit \(visit) of \(key)" + (variant.map { ", variant \($0)" } ?? "")
        return .reply(Reply(status: status, headers: headers, body: .buffer(ByteBuffer(string: text))))
    }

    /// RFC 9110 §13.1.2 and §13.1.3: `If-None-Match` decides when present (weak comparison);
    /// otherwise `If-Modified-Since`.
    private static func notModified(_ request: RouteRequest, entityTag: String?, lastModified: Date?) -> Bool {
        if let tags = request.recorded.value(for: "If-None-Match") {
            guard let entityTag else { return false }
            let weak = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
            return tags.split(separator: ",").contains { candidate in
                let trimmed = candidate.trimmingCharacters(in: .whitespaces)
                return trimmed == "*" || weak(Substring(trimmed)) == weak(Substring(entityTag))
            }
        }
        guard let since = request.recorded.value(for: "If-Modified-Since"), let lastModified,
            let date = HTTPDateText.parse(since)
        else { return false }
        return lastModified.timeIntervalSince(date) < 1
    }
}
