import Foundation

/// The state behind a ``CookieStore``: the storage model of RFC 6265 §5.3 and the choice of
/// cookies for a request of §5.4, as a value with no lock and no clock, so that every rule is
/// a plain function of its arguments.
///
/// Cookies are grouped by ``Cookie/domain``: the cookies a host can receive live under the host
/// and its parent domains, so a request looks at a few groups rather than at every cookie, and
/// the per-domain bound is a count of one group.
struct CookieJar {
    private struct Entry {
        var cookie: Cookie
        /// Set when the cookie is stored or sent; the least recently used is evicted first.
        var lastAccess: Date
        /// Order of first insertion: the final tie-break, so equal times still give one answer.
        var sequence: UInt64
    }

    let maximumCount: Int
    let maximumCountPerDomain: Int
    private var entriesByDomain: [String: [Entry]] = [:]
    private(set) var count = 0
    private var nextSequence: UInt64 = 0

    init(maximumCount: Int, maximumCountPerDomain: Int) {
        self.maximumCount = max(0, maximumCount)
        self.maximumCountPerDomain = max(0, maximumCountPerDomain)
    }

    /// Every cookie, in the order first stored.
    var cookies: [Cookie] {
        entriesByDomain.values.joined().sorted { $0.sequence < $1.sequence }.map(\.cookie)
    }

    mutating func removeAll() {
        entriesByDomain = [:]
        count = 0
    }

    /// §5.3: "The user agent MUST evict all expired cookies from the cookie store if, at any
    /// time, an expired cookie exists in the cookie store."
    mutating func removeExpired(at now: Date) {
        for (domain, entries) in entriesByDomain {
            let live = entries.filter { !$0.cookie.isExpired(at: now) }
            if live.count != entries.count {
                replaceEntries(of: domain, with: live)
            }
        }
    }

    /// §5.3 steps 11 and 12, then the bounds.
    ///
    /// A cookie with the same name, domain and path replaces the stored one and keeps its
    /// creation time; an expired cookie only removes the stored one. A cookie that is not
    /// `Secure`, arriving over a scheme that is not secure, is dropped when it would overwrite
    /// or shadow a `Secure` cookie (RFC 6265bis §5.7, "leave secure cookies alone").
    mutating func store(_ cookie: Cookie, fromSecureScheme: Bool, now: Date) {
        if !cookie.isSecure, !fromSecureScheme, wouldShadowSecureCookie(cookie) { return }
        var entries = entriesByDomain[cookie.domain] ?? []
        let stored = entries.firstIndex {
            CookieMatching.identical($0.cookie.name, cookie.name) && CookieMatching.identical($0.cookie.path, cookie.path)
        }
        if cookie.isExpired(at: now) {
            guard let stored else { return }
            entries.remove(at: stored)
        } else if let stored {
            var replacement = cookie
            replacement.creation = entries[stored].cookie.creation
            entries[stored] = Entry(cookie: replacement, lastAccess: now, sequence: entries[stored].sequence)
        } else {
            entries.append(Entry(cookie: cookie, lastAccess: now, sequence: nextSequence))
            nextSequence += 1
        }
        replaceEntries(of: cookie.domain, with: entries)
        evictBeyondBounds(in: cookie.domain)
    }

    /// §5.4 steps 1 to 3: the live cookies for `uri`, longest path first, then oldest first.
    /// Expired cookies met on the way are removed.
    mutating func cookies(for uri: CookieRequestURI, now: Date) -> [Cookie] {
        var chosen: [Entry] = []
        for domain in CookieJar.domains(containing: uri) {
            guard var entries = entriesByDomain[domain] else { continue }
            entries.removeAll { $0.cookie.isExpired(at: now) }
            for index in entries.indices where entries[index].cookie.isSent(to: uri) {
                entries[index].lastAccess = now
                chosen.append(entries[index])
            }
            replaceEntries(of: domain, with: entries)
        }
        return chosen.sorted(by: CookieJar.sendsFirst).map(\.cookie)
    }

    /// The host and, unless it is an IP address, each parent domain: the only domains whose
    /// cookies the host can domain-match.
    private static func domains(containing uri: CookieRequestURI) -> [String] {
        guard !uri.hostIsIPAddress else { return [uri.host] }
        let bytes = Array(uri.host.utf8)
        let parents = bytes.indices
            .filter { bytes[$0] == UInt8(ascii: ".") }
            .map { String(decoding: bytes[($0 + 1)...], as: UTF8.self) }
        return [uri.host] + parents
    }

    private static func sendsFirst(_ first: Entry, _ second: Entry) -> Bool {
        let firstLength = first.cookie.path.utf8.count
        let secondLength = second.cookie.path.utf8.count
        if firstLength != secondLength { return firstLength > secondLength }
        if first.cookie.creation != second.cookie.creation { return first.cookie.creation < second.cookie.creation }
        return first.sequence < second.sequence
    }

    private func wouldShadowSecureCookie(_ cookie: Cookie) -> Bool {
        entriesByDomain.contains { domain, entries in
            guard CookieMatching.host(domain, domainMatches: cookie.domain)
                || CookieMatching.host(cookie.domain, domainMatches: domain)
            else { return false }
            return entries.contains {
                $0.cookie.isSecure && CookieMatching.identical($0.cookie.name, cookie.name)
                    && CookieMatching.path(cookie.path, pathMatches: $0.cookie.path)
            }
        }
    }

    /// §5.3 leaves the bounds to the implementation; these keep a hostile server from growing
    /// the store without limit. One domain over its bound loses its least recently used
    /// cookie. A store over its bound loses its least recently used tenth at once, as
    /// Chromium's store does, so that a flood of cookies costs one sort per few hundred
    /// cookies rather than a scan of the whole store per cookie.
    private mutating func evictBeyondBounds(in domain: String) {
        while let entries = entriesByDomain[domain], entries.count > maximumCountPerDomain,
              let oldest = entries.indices.min(by: { CookieJar.isUsedLess(entries[$0], than: entries[$1]) }) {
            var remaining = entries
            remaining.remove(at: oldest)
            replaceEntries(of: domain, with: remaining)
        }
        if count > maximumCount {
            removeLeastRecentlyUsed(count - (maximumCount - maximumCount / 10))
        }
    }

    private mutating func removeLeastRecentlyUsed(_ number: Int) {
        let victims = entriesByDomain
            .flatMap { domain, entries in entries.map { (domain: domain, entry: $0) } }
            .sorted { CookieJar.isUsedLess($0.entry, than: $1.entry) }
            .prefix(number)
        // Sequences are unique: a replacement takes over its predecessor's.
        let sequencesByDomain = Dictionary(grouping: victims, by: \.domain).mapValues { Set($0.map(\.entry.sequence)) }
        for (domain, sequences) in sequencesByDomain {
            let remaining = (entriesByDomain[domain] ?? []).filter { !sequences.contains($0.sequence) }
            replaceEntries(of: domain, with: remaining)
        }
    }

    private static func isUsedLess(_ first: Entry, than second: Entry) -> Bool {
        (first.lastAccess, first.sequence) < (second.lastAccess, second.sequence)
    }

    /// The one place `entriesByDomain` changes, so `count` always agrees with it.
    private mutating func replaceEntries(of domain: String, with entries: [Entry]) {
        count += entries.count - (entriesByDomain[domain]?.count ?? 0)
        entriesByDomain[domain] = entries.isEmpty ? nil : entries
    }
}

extension Cookie {
    /// §5.4 step 1: the domain rule for host-only and domain cookies, path-match, and
    /// `Secure` only over a secure scheme.
    func isSent(to uri: CookieRequestURI) -> Bool {
        let domainMatches = isHostOnly
            ? CookieMatching.identical(uri.host, domain)
            : CookieMatching.host(uri.host, domainMatches: domain)
        return domainMatches && CookieMatching.path(uri.path, pathMatches: path) && (!isSecure || uri.isSecure)
    }
}
