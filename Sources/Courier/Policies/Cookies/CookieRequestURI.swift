import Foundation

/// The parts of a request URL that RFC 6265 matches cookies against: the canonicalized host
/// (§5.1.2), the path (§5.1.4) and whether the scheme is secure.
///
/// Only `http` and `https` URLs have one, because cookies belong to HTTP; a `file:` or `data:`
/// URL neither sets nor receives them.
struct CookieRequestURI: Sendable {
    /// The host in lower case, without brackets for IPv6.
    var host: String
    /// The percent-encoded path as the request sends it, `/` when the URL has none.
    var path: String
    /// Whether the scheme is `https`, the only one that may set or receive `Secure` cookies.
    var isSecure: Bool

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host(percentEncoded: true), !host.isEmpty
        else { return nil }
        self.host = host.lowercased()
        // The percent-encoded path keeps a trailing "/" (which `URL.path` drops on Linux) and
        // compares octet for octet, as §5.1.4 does: "/f%6Fo" is not "/foo".
        let path = url.path(percentEncoded: true)
        self.path = path.hasPrefix("/") ? path : "/"
        self.isSecure = scheme == "https"
    }

    /// `default-path` of §5.1.4: the directory of the request path, for cookies with no `Path`.
    var defaultPath: String {
        let bytes = Array(path.utf8)
        guard let lastSlash = bytes.lastIndex(of: UInt8(ascii: "/")), lastSlash > 0 else { return "/" }
        return String(decoding: bytes[..<lastSlash], as: UTF8.self)
    }

    /// Whether the host is an IP address literal, which only ever matches itself (§5.1.3).
    ///
    /// There is no address parser here: a host with a colon is IPv6, and a host whose last label
    /// is all digits is taken as IPv4, as the URL Standard's "ends in a number" rule does. That
    /// errs towards host-only cookies for odd numeric hosts, never towards sharing them.
    var hostIsIPAddress: Bool {
        CookieRequestURI.isIPAddress(host)
    }

    static func isIPAddress(_ host: String) -> Bool {
        let bytes = host.utf8
        if bytes.contains(UInt8(ascii: ":")) { return true }
        let lastLabel = bytes.lastIndex(of: UInt8(ascii: ".")).map { bytes[bytes.index(after: $0)...] } ?? bytes[...]
        return !lastLabel.isEmpty && lastLabel.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}

/// Matching rules of RFC 6265 §5.1.3 and §5.1.4, compared octet for octet: Swift's `==` on
/// strings treats canonically equivalent Unicode as equal, which these rules do not.
enum CookieMatching {
    static func identical(_ first: String, _ second: String) -> Bool {
        first.utf8.elementsEqual(second.utf8)
    }

    /// "domain-match" of §5.1.3: `host` is `domain`, or a name under it when `host` is not an
    /// IP address.
    static func host(_ host: String, domainMatches domain: String) -> Bool {
        if identical(host, domain) { return true }
        let hostBytes = host.utf8
        let domainBytes = domain.utf8
        guard !domainBytes.isEmpty, hostBytes.count > domainBytes.count,
              hostBytes.reversed().starts(with: domainBytes.reversed()),
              hostBytes.dropLast(domainBytes.count).last == UInt8(ascii: ".")
        else { return false }
        return !CookieRequestURI.isIPAddress(host)
    }

    /// "path-match" of §5.1.4: the paths are identical, or `cookiePath` is a prefix of
    /// `requestPath` that ends at a "/" boundary.
    static func path(_ requestPath: String, pathMatches cookiePath: String) -> Bool {
        let request = requestPath.utf8
        let cookie = cookiePath.utf8
        guard request.starts(with: cookie) else { return false }
        if request.count == cookie.count || cookie.last == UInt8(ascii: "/") { return true }
        return request.dropFirst(cookie.count).first == UInt8(ascii: "/")
    }
}
