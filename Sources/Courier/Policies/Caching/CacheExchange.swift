import Foundation

/// One request's way through a private cache (RFC 9111), as a value: told what the store holds
/// and then what the network answered, it says what to do, and touches neither.
///
/// The layer over an engine applies its actions: it reads and writes the store, sends the
/// request, and answers.
struct CacheExchange: Sendable {
    private enum State: Sendable {
        case start
        /// The request went to the network; nothing stored was offered.
        case forwarded
        /// A conditional request went to the network to revalidate `entry`.
        case revalidating(CacheEntry)
        case ended
    }

    private var state = State.start
    let request: CacheRequest
    let usesHeuristicFreshness: Bool

    init(request: CacheRequest, usesHeuristicFreshness: Bool) {
        self.request = request
        self.usesHeuristicFreshness = usesHeuristicFreshness
    }

    // MARK: Looking up

    /// What to do with the request, given the variants stored for its key.
    enum LookupAction: Sendable {
        /// Answer with the stored `entry`, its `Age` field set to `age` seconds.
        case answer(CacheEntry, age: Int)
        /// Send the request with `fields` added, to revalidate `entry`.
        case revalidate(CacheEntry, fields: [HeaderField])
        /// Send the request as it is.
        case forward
        /// Answer 504 without sending anything: `only-if-cached` and nothing usable is stored.
        case gatewayTimeout
    }

    mutating func lookUp(_ entries: [CacheEntry], now: Date) -> LookupAction {
        guard case .start = state else { return .forward }
        guard request.key != nil, request.isStorableMethod, !request.noStore, !request.reload, !request.isConditional,
            let entry = entries.first(where: matches)
        else { return miss() }
        let response = entry.response
        let age = response.currentAge(at: now)
        if !request.noCache && !response.cacheControl.contains("no-cache") && isUsable(response, age: age) {
            state = .ended
            return .answer(entry, age: Int(age))
        }
        if request.onlyIfCached {
            state = .ended
            return .gatewayTimeout
        }
        guard response.hasValidator else {
            state = .forwarded
            return .forward
        }
        state = .revalidating(entry)
        return .revalidate(entry, fields: Self.preconditions(for: response))
    }

    /// The stored entry the lookup chose could not be read after all: a miss.
    mutating func storedBodyMissing() -> LookupAction {
        state = .start
        return miss()
    }

    private mutating func miss() -> LookupAction {
        if request.onlyIfCached && !request.noStore {
            state = .ended
            return .gatewayTimeout
        }
        state = .forwarded
        return .forward
    }

    /// §4.1: every field the stored response's `Vary` names has the value it had.
    private func matches(_ entry: CacheEntry) -> Bool {
        entry.response.varyingRequestFields.allSatisfy { name, value in request.varyingValue(name) == value }
    }

    /// Fresh enough for this request (§4.2 and §5.2.1), or stale in a way the request accepts
    /// and the response allows (§4.2.4).
    private func isUsable(_ response: StoredResponse, age: TimeInterval) -> Bool {
        let lifetime = response.freshnessLifetime(heuristics: usesHeuristicFreshness)
        if let maximumAge = request.maximumAge, age > TimeInterval(maximumAge) { return false }
        if let minimumFresh = request.minimumFresh, lifetime - age < TimeInterval(minimumFresh) { return false }
        if lifetime > age { return true }
        guard let maximumStale = request.maximumStale, !response.cacheControl.contains("must-revalidate") else { return false }
        return maximumStale == Int.max || age - lifetime <= TimeInterval(maximumStale)
    }

    /// §4.3.1: the stored response's entity tag and modification date, as preconditions.
    private static func preconditions(for response: StoredResponse) -> [HeaderField] {
        var fields: [HeaderField] = []
        if let etag = response.fieldValue("ETag") { fields.append(HeaderField(name: "If-None-Match", value: etag)) }
        if let lastModified = response.fieldValue("Last-Modified") {
            fields.append(HeaderField(name: "If-Modified-Since", value: lastModified))
        }
        return fields
    }

    // MARK: The network's answer

    /// A response as it came from the network, with the times its age is computed from.
    struct NetworkResponse: Sendable {
        var statusCode: Int
        var headerFields: [HeaderField]
        var url: URL?
        var httpVersion: HTTPVersion
        var requestTime: Date
        var responseTime: Date

        func fieldValue(_ name: String) -> String? {
            let values = headerFields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
    }

    /// What to do with the network's answer.
    enum ResponseAction: Sendable {
        /// Hand the response up and store it, as the variant `variant`, while its body is read.
        case store(StoredResponse, variant: String)
        /// A 304 confirmed `entry`: store `updated` as its head and answer with the stored body.
        case freshen(CacheEntry, updated: StoredResponse)
        /// A 304 that confirms nothing stored: send the request again without preconditions.
        case resendUnconditionally
        /// Hand the response up, and remove what is stored for `keys` (§4.4).
        case invalidate([CacheKey])
        /// Hand the response up untouched.
        case pass
    }

    mutating func received(_ response: NetworkResponse) -> ResponseAction {
        let revalidated: CacheEntry?
        switch state {
        case .revalidating(let entry): revalidated = entry
        case .forwarded: revalidated = nil
        case .start, .ended: return .pass
        }
        state = .ended
        if let revalidated, response.statusCode == 304 {
            guard Self.confirms(response, revalidated.response) else {
                state = .forwarded
                return .resendUnconditionally
            }
            return .freshen(revalidated, updated: Self.freshened(revalidated.response, with: response))
        }
        if !request.isSafeMethod, (200..<400).contains(response.statusCode) {
            return .invalidate(invalidatedKeys(by: response))
        }
        guard let (stored, variant) = storable(response) else { return .pass }
        return .store(stored, variant: variant)
    }

    /// §3: whether a private cache may keep the response, and what it keeps.
    private func storable(_ response: NetworkResponse) -> (StoredResponse, variant: String)? {
        guard request.isStorableMethod, !request.noStore, let url = response.url ?? requestURL,
            (200...599).contains(response.statusCode), response.statusCode != 206, response.statusCode != 304
        else { return nil }
        let directives = CacheControl(response.fieldValue("Cache-Control"))
        guard !directives.contains("no-store") else { return nil }
        if request.hasAuthorization
            && !(directives.contains("must-revalidate") || directives.contains("public") || directives.contains("s-maxage"))
        {
            return nil
        }
        let varied = Self.varyingNames(response.fieldValue("Vary"))
        guard !varied.contains("*") else { return nil }
        let explicitlyCacheable = directives.contains("public") || directives.contains("private")
            || directives.contains("max-age") || response.fieldValue("Expires") != nil
        guard explicitlyCacheable || StoredResponse.isHeuristicallyCacheable(response.statusCode) else { return nil }
        var varying: [String: String?] = [:]
        for name in varied { varying[name] = .some(request.varyingValue(name)) }
        let stored = StoredResponse(
            statusCode: response.statusCode, headerFields: Self.storedFields(response.headerFields), url: url.absoluteString,
            httpVersionMajor: response.httpVersion.major, httpVersionMinor: response.httpVersion.minor,
            varyingRequestFields: varying, requestTime: response.requestTime, responseTime: response.responseTime
        )
        // A response that is never fresh and cannot be revalidated could only be served stale.
        guard stored.freshnessLifetime(heuristics: usesHeuristicFreshness) > 0 || stored.hasValidator else { return nil }
        let variant = varied.sorted().map { "\($0): \(request.varyingValue($0) ?? "")" }.joined(separator: "\n")
        return (stored, variant)
    }

    private var requestURL: URL? {
        request.key.flatMap { URL(string: $0.url) }
    }

    /// §4.4: the target URI, and the `Location` and `Content-Location` URLs of the same origin.
    private func invalidatedKeys(by response: NetworkResponse) -> [CacheKey] {
        guard let target = requestURL else { return [] }
        var keys = [CacheKey(method: "GET", url: target.absoluteString)]
        for name in ["Location", "Content-Location"] {
            guard let value = response.fieldValue(name), let url = URL(string: value, relativeTo: target)?.absoluteURL,
                url.scheme == target.scheme, url.host == target.host, url.port == target.port
            else { continue }
            keys.append(CacheKey(method: "GET", url: url.absoluteString))
        }
        return keys
    }

    /// The names a `Vary` field lists, lowercased.
    static func varyingNames(_ value: String?) -> Set<String> {
        guard let value else { return [] }
        return Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty })
    }

    /// §4.3.4: whether the 304 speaks of the stored response. A strong entity tag must equal the
    /// stored one; a weak one, equal in the weak comparison; without one, `Last-Modified` must
    /// match when both have it. A 304 naming no validator confirms the response it was asked
    /// about, as browsers take it.
    private static func confirms(_ response: NetworkResponse, _ stored: StoredResponse) -> Bool {
        if let etag = response.fieldValue("ETag") {
            guard let storedETag = stored.fieldValue("ETag") else { return false }
            if etag.hasPrefix("W/") { return opaque(etag) == opaque(storedETag) }
            return !storedETag.hasPrefix("W/") && etag == storedETag
        }
        if let lastModified = response.fieldValue("Last-Modified"), let storedLastModified = stored.fieldValue("Last-Modified") {
            return lastModified == storedLastModified
        }
        return true
    }

    private static func opaque(_ etag: String) -> String {
        etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
    }

    /// §3.2: the stored head with the 304's fields in place of its own, except those that
    /// describe the stored body's framing or the connection.
    private static func freshened(_ stored: StoredResponse, with response: NetworkResponse) -> StoredResponse {
        let updates = storedFields(response.headerFields).filter { !keptFromUpdates.contains($0.name.lowercased()) }
        let updatedNames = Set(updates.map { $0.name.lowercased() })
        var freshened = stored
        freshened.headerFields = stored.headerFields.filter { !updatedNames.contains($0.name.lowercased()) } + updates
        freshened.requestTime = response.requestTime
        freshened.responseTime = response.responseTime
        return freshened
    }

    /// Fields a 304 does not replace: they describe the stored body's bytes.
    private static let keptFromUpdates: Set<String> = ["content-length", "content-encoding", "content-range"]

    /// The fields kept of a response: not those about the connection it came on (§3.1), nor
    /// `Set-Cookie`, which would set a cookie again on every answer from the cache.
    static func storedFields(_ fields: [HeaderField]) -> [StoredField] {
        var hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "transfer-encoding", "upgrade", "set-cookie"]
        for field in fields where field.name.lowercased() == "connection" {
            for name in field.value.split(separator: ",") { hopByHop.insert(name.trimmingCharacters(in: .whitespaces).lowercased()) }
        }
        return fields.filter { !hopByHop.contains($0.name.lowercased()) }.map { StoredField(name: $0.name, value: $0.value) }
    }

    /// The stored fields with `Age` set to `age`, as an answer from the cache must carry (§5.1).
    static func answeredFields(_ stored: StoredResponse, age: Int) -> [HeaderField] {
        stored.headerFields.filter { $0.name.lowercased() != "age" }.map { HeaderField(name: $0.name, value: $0.value) }
            + [HeaderField(name: "Age", value: String(age))]
    }
}
