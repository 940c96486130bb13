import Foundation

/// An in-memory cookie store that follows RFC 6265: it keeps the cookies servers set and
/// chooses which to send with each request.
///
/// Nothing stores or sends cookies unless asked: set ``Policies/cookies`` to a store, and both
/// engines store what servers set and send it back, on every hop of a redirect chain. One store
/// may serve many concurrent requests, and several transports. To keep cookies across runs,
/// write the store with ``netscapeCookieFile(now:)`` and read it back with
/// ``load(netscapeCookieFile:now:)``.
///
/// ```swift
/// var policies = Policies()
/// policies.cookies = CookieStore()
/// let transport = URLSessionTransport(configuration: .init(policies: policies))
/// ```
///
/// Which rules apply: storage as RFC 6265 §5.3 (a cookie with the same name, domain and path
/// replaces the stored one and keeps its creation time; an expired one deletes it), and
/// selection as §5.4 (domain- and path-match, `Secure` cookies over `https` only, longest path
/// first, then oldest).
/// A store is not a browser: it knows no public suffixes beyond single labels, and it does not
/// enforce `SameSite`, since a client without a browsing context has no site to compare.
///
/// The store is bounded so that no server can grow it without limit (§5.3 suggests 50 cookies
/// per domain and 3000 in all, the defaults). Past `maximumCountPerDomain` cookies for one
/// domain, that domain's least recently stored or sent cookie is evicted. Past `maximumCount`
/// in all, the least recently used tenth of the store is evicted at once, so that a flood of
/// cookies does not cost a scan of the whole store for every cookie.
public final class CookieStore: Sendable {

    private let jar: Locked<CookieJar>

    /// Creates an empty store that keeps at most `maximumCount` cookies, `maximumCountPerDomain`
    /// of them for one domain (3,000 and 50 by default, as browsers keep). Negative bounds
    /// count as zero, which keeps nothing.
    public init(maximumCount: Int = 3000, maximumCountPerDomain: Int = 50) {
        jar = Locked(CookieJar(maximumCount: maximumCount, maximumCountPerDomain: maximumCountPerDomain))
    }

    /// The value of the `Cookie` header for a request to `url`, or `nil` when no stored cookie
    /// applies (or `url` is not `http` or `https`).
    ///
    /// Cookies are chosen and ordered as RFC 6265 §5.4 says and joined with "; ". Cookies that
    /// have expired by `now` are not sent and are removed.
    package func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        guard let uri = CookieRequestURI(url) else { return nil }
        let cookies = jar.withLock { $0.cookies(for: uri, now: now) }
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the cookies of a response from `url`, one `Set-Cookie` field value each.
    ///
    /// Values a user agent must ignore are skipped (see
    /// ``Cookie/init(setCookie:requestURL:now:)``), and nothing is stored from a URL that is
    /// not `http` or `https`. Field values that a transport joined with commas must be split
    /// first; the cookie layer (``Policies/cookies``) does that.
    package func store(setCookieFields: [String], from url: URL, now: Date = Date()) {
        guard let uri = CookieRequestURI(url) else { return }
        let cookies = setCookieFields.compactMap { Cookie(setCookie: $0, requestURL: url, now: now) }
        guard !cookies.isEmpty else { return }
        jar.withLock { jar in
            jar.removeExpired(at: now)
            for cookie in cookies {
                jar.store(cookie, fromSecureScheme: uri.isSecure, now: now)
            }
        }
    }

    /// Every stored cookie, in the order first stored. Cookies that expired since the store
    /// last ran with a `now` may still be listed.
    public var cookies: [Cookie] {
        jar.withLock { $0.cookies }
    }

    /// Removes every cookie.
    public func removeAll() {
        jar.withLock { $0.removeAll() }
    }

    /// Stores cookies that need no checks against a response, such as those read from a file.
    func insert(_ cookies: [Cookie], now: Date) {
        jar.withLock { jar in
            jar.removeExpired(at: now)
            for cookie in cookies {
                jar.store(cookie, fromSecureScheme: true, now: now)
            }
        }
    }
}
