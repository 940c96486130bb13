import Foundation

/// How old a stored response is and how long it stays fresh, as RFC 9111 §4.2 computes them
/// for a private cache.
extension StoredResponse {
    /// The value of the field `name`, compared without regard to case; repeated fields joined
    /// with `", "`.
    func fieldValue(_ name: String) -> String? {
        let values = headerFields.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    var cacheControl: CacheControl {
        CacheControl(fieldValue("Cache-Control"))
    }

    /// `date_value`: the `Date` field, or when the response came without a valid one, the time
    /// it arrived (RFC 9110 §6.6.1 has a cache add it).
    var dateValue: Date {
        fieldValue("Date").flatMap { HTTPDate.parse($0) } ?? responseTime
    }

    /// The freshness lifetime of §4.2.1, in seconds. A private cache ignores `s-maxage`. An
    /// invalid `max-age` or `Expires` makes the response stale at once; with none of them, the
    /// heuristic of §4.2.2 applies only when `heuristics` allows it.
    func freshnessLifetime(heuristics: Bool) -> TimeInterval {
        switch cacheControl.seconds("max-age") {
        case .valid(let seconds): return TimeInterval(seconds)
        case .invalid: return 0
        case .absent: break
        }
        if let expires = fieldValue("Expires") {
            guard let date = HTTPDate.parse(expires) else { return 0 }
            return max(0, date.timeIntervalSince(dateValue))
        }
        guard heuristics, Self.isHeuristicallyCacheable(statusCode) || cacheControl.contains("public"),
            let lastModified = fieldValue("Last-Modified").flatMap({ HTTPDate.parse($0) })
        else { return 0 }
        // A tenth of the time since the last change, the figure §4.2.2 and browsers use.
        return max(0, dateValue.timeIntervalSince(lastModified) / 10)
    }

    /// `current_age` of §4.2.3, in seconds, at `now`.
    func currentAge(at now: Date) -> TimeInterval {
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = TimeInterval(ageValue) + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return correctedInitialAge + residentTime
    }

    /// `age_value`: the first member of `Age` when it is a non-negative integer, else 0 (§5.1).
    private var ageValue: Int {
        guard let first = fieldValue("Age")?.split(separator: ",").first else { return 0 }
        let trimmed = first.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return 0 }
        return Int(trimmed) ?? 1 << 31
    }

    /// Whether the response names a validator a conditional request can be made with.
    var hasValidator: Bool {
        fieldValue("ETag") != nil || fieldValue("Last-Modified") != nil
    }

    /// The status codes that RFC 9110 §15.1 defines as heuristically cacheable.
    static func isHeuristicallyCacheable(_ statusCode: Int) -> Bool {
        [200, 203, 204, 206, 300, 301, 308, 404, 405, 410, 414, 501].contains(statusCode)
    }
}
