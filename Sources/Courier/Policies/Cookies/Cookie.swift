import Foundation

/// A cookie as a user agent stores it: the fields of RFC 6265 §5.3 that decide where it is
/// sent and for how long.
///
/// A ``CookieStore`` makes one from each `Set-Cookie` field value a server sends, applying every
/// rule a server's cookie must pass; make one yourself with the memberwise
/// ``init(name:value:domain:isHostOnly:path:expires:isSecure:isHTTPOnly:sameSite:creation:)``,
/// which trusts its arguments. ``CookieStore`` keeps cookies and chooses which to send.
public struct Cookie: Sendable, Hashable {
    /// The `SameSite` attribute of RFC 6265bis, recorded but not enforced: a client without a
    /// browsing context has no "site" that a request could cross.
    public enum SameSite: String, Sendable, Hashable {
        /// Sent by a browser only with requests from the cookie's own site.
        case strict = "Strict"
        /// Sent by a browser with same-site requests and top-level cross-site navigations.
        case lax = "Lax"
        /// Sent by a browser with every request, cross-site included (browsers also want `Secure`).
        case none = "None"

        /// Matches RFC 6265bis §5.6.7: case-insensitive, and any other value is no attribute.
        init?(attributeValue: String) {
            switch attributeValue.lowercased() {
            case "strict": self = .strict
            case "lax": self = .lax
            case "none": self = .none
            default: return nil
            }
        }
    }

    /// The name, never empty, trimmed of spaces and tabs.
    public var name: String
    /// The value as the server sent it, trimmed of spaces and tabs; quotes are kept.
    public var value: String
    /// The host (when ``isHostOnly``) or the domain the cookie belongs to, in lower case and
    /// without a leading dot.
    public var domain: String
    /// `true` when the cookie is sent to ``domain`` alone, `false` when subdomains get it too
    /// (the server gave a `Domain` attribute).
    public var isHostOnly: Bool
    /// The path the request path must match (§5.1.4), always starting with "/".
    public var path: String
    /// When the cookie expires; `nil` for a session cookie, which lasts as long as its store.
    public var expires: Date?
    /// Sent over `https` only.
    public var isSecure: Bool
    /// Hidden from scripts in a browser. A store used by HTTP requests sends it like any other.
    public var isHTTPOnly: Bool
    /// The `SameSite` attribute, or `nil` when absent or unrecognised.
    public var sameSite: SameSite?
    /// When the cookie was first stored; a cookie replaced by a newer one keeps the old time.
    /// Among cookies with equally long paths, older ones are sent first.
    package var creation: Date

    /// Creates a cookie from its fields, without checking them.
    public init(
        name: String,
        value: String,
        domain: String,
        isHostOnly: Bool = true,
        path: String = "/",
        expires: Date? = nil,
        isSecure: Bool = false,
        isHTTPOnly: Bool = false,
        sameSite: SameSite? = nil,
        creation: Date = Date()
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.isHostOnly = isHostOnly
        self.path = path
        self.expires = expires
        self.isSecure = isSecure
        self.isHTTPOnly = isHTTPOnly
        self.sameSite = sameSite
        self.creation = creation
    }

    /// Whether the cookie has expired by `now`, and must be neither sent nor kept.
    package func isExpired(at now: Date) -> Bool {
        expires.map { $0 <= now } ?? false
    }
}

extension Cookie {
    /// RFC 6265bis §5.6: a name and value longer than this together are ignored, the size every
    /// current browser accepts.
    static let maximumNameAndValueLength = 4096

    /// Parses one `Set-Cookie` field value received in the response to `requestURL`, or returns
    /// `nil` when a user agent must ignore it.
    ///
    /// Follows RFC 6265 §5.2 (parsing) and §5.3 steps 2 to 9 (what to store):
    /// - The name-value pair is everything before the first ";"; without an "=" or with an empty
    ///   name the cookie is ignored. Names, values, attribute names and attribute values are
    ///   trimmed of spaces and tabs; quotes are kept as part of the value.
    /// - Attribute names are case-insensitive and the last occurrence of each wins; unknown
    ///   attributes are skipped.
    /// - `Expires` is read with the cookie-date algorithm of §5.1.1. `Max-Age` (digits, with an
    ///   optional "-") wins over `Expires` wherever each appears; zero or less means already
    ///   expired. Without either the cookie is a session cookie (``expires`` is `nil`).
    /// - `Domain` loses a leading "." and is lowered; the request host must domain-match it
    ///   (§5.1.3) or the cookie is ignored. `Domain` naming the host itself still makes a domain
    ///   cookie, except on an IP address host, whose cookies are always host-only. There is no
    ///   public suffix list: a single-label `Domain` such as "com" is refused (or made host-only
    ///   when it is the host itself, as for "localhost"), but "co.uk" is not recognised as a
    ///   public suffix.
    /// - A `Path` that does not start with "/" counts as the default path of §5.1.4, the
    ///   directory of the request path.
    ///
    /// and these rules of RFC 6265bis, which close holes a server could otherwise use:
    /// - A field with a control character other than tab is ignored, so no cookie can break
    ///   the `Cookie` header it is later sent in.
    /// - A name and value longer than 4096 bytes together are ignored, and so is any attribute
    ///   whose value is longer than 1024 bytes.
    /// - A `Secure` cookie is accepted only from an `https` URL.
    /// - A name starting with `__Secure-` (any case) needs `Secure`; one starting with `__Host-`
    ///   needs `Secure`, `Path=/` and no `Domain`.
    ///
    /// Deliberately not done: converting a non-ASCII `Domain` to punycode (such a `Domain` never
    /// matches and the cookie is ignored), capping lifetimes at 400 days, and accepting
    /// cookies with an empty name, which RFC 6265bis allows and RFC 6265 refuses.
    ///
    /// - Parameters:
    ///   - setCookie: one field value; split joined values first (see the cookie layer (``Policies/cookies``)).
    ///   - requestURL: the URL the response came from; only `http` and `https` set cookies.
    ///   - now: the time the response arrived, which `Max-Age` counts from and which becomes
    ///     ``creation``.
    package init?(setCookie: String, requestURL: URL, now: Date = Date()) {
        guard let uri = CookieRequestURI(requestURL),
              !Cookie.containsControlCharacter(setCookie),
              let parsed = SetCookieString(setCookie),
              parsed.name.utf8.count + parsed.value.utf8.count <= Cookie.maximumNameAndValueLength
        else { return nil }
        let attributes = CookieAttributes(parsed.attributes, defaultPath: uri.defaultPath, now: now)
        guard let scope = Cookie.scope(domainAttribute: attributes.domain, uri: uri),
              !attributes.isSecure || uri.isSecure
        else { return nil }
        self.init(
            name: parsed.name,
            value: parsed.value,
            domain: scope.domain,
            isHostOnly: scope.isHostOnly,
            path: attributes.path ?? uri.defaultPath,
            expires: attributes.expiry,
            isSecure: attributes.isSecure,
            isHTTPOnly: attributes.isHTTPOnly,
            sameSite: attributes.sameSite,
            creation: now
        )
        guard satisfiesNamePrefix(attributes) else { return nil }
    }

    /// RFC 6265bis §5.6 step 1: CTLs other than HTAB.
    private static func containsControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }

    /// §5.3 steps 4 to 6: which domain the cookie belongs to, and whether subdomains share it;
    /// `nil` when the cookie must be ignored.
    private static func scope(domainAttribute: String?, uri: CookieRequestURI) -> (domain: String, isHostOnly: Bool)? {
        guard let domainAttribute, !domainAttribute.isEmpty else { return (uri.host, true) }
        // Without a public suffix list, a single label is the one suffix known to be public.
        if !domainAttribute.utf8.contains(UInt8(ascii: ".")) {
            return CookieMatching.identical(domainAttribute, uri.host) ? (uri.host, true) : nil
        }
        guard CookieMatching.host(uri.host, domainMatches: domainAttribute) else { return nil }
        return uri.hostIsIPAddress ? (uri.host, true) : (domainAttribute, false)
    }

    /// The cookie name prefixes of RFC 6265bis §4.1.3, which let a server rely on a cookie
    /// having been set securely and, for `__Host-`, by this very host.
    private func satisfiesNamePrefix(_ attributes: CookieAttributes) -> Bool {
        let lowercasedName = name.lowercased()
        if lowercasedName.hasPrefix("__secure-") {
            return isSecure
        }
        if lowercasedName.hasPrefix("__host-") {
            return isSecure && attributes.domain == nil && attributes.path == "/"
        }
        return true
    }
}
