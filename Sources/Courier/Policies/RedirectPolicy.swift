#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Which redirects the redirect layer (``Policies/redirects``) follows and how it rewrites the request for the
/// next hop.
///
/// Method and body rules are RFC 9110's and Fetch's: 303 turns any method but HEAD into GET;
/// 301 and 302 turn POST into GET; 307 and 308 keep method and body. When the method becomes
/// GET, the body goes and so do the headers that describe it (`Content-Type`, `Content-Length`,
/// `Content-Encoding`, `Content-Language`, `Content-Location`). A relative `Location` resolves
/// against the current URL. A ``RequestBody`` (see the streaming redirect layer)
/// goes or stays as `httpBody` does; one that a 307 or 308 keeps but that cannot be sent again
/// (a stream read once) fails the redirect with
/// `URLError(.requestBodyStreamExhausted)`, as a body stream does.
///
/// Safety rules are those curl, Go and urllib3 each had to add after the fact: credentials never
/// cross origins, https never silently downgrades, and only http and https locations are
/// followed.
public struct RedirectPolicy: Sendable, Equatable {
    /// What to do with a response.
    package enum Decision: Sendable, Equatable {
        /// Not a redirect to follow: hand this response to the caller.
        case deliver
        /// Send this request next.
        case follow(URLRequest)
        /// Stop the chain with this error code; ``message`` says why.
        case fail(URLError.Code, message: String)
    }

    /// Headers removed from the request whenever a redirect changes scheme, host or port,
    /// whatever ``sensitiveHeaderNames`` says.
    package static let alwaysSensitiveHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// The most redirects followed for one request before it fails with
    /// `URLError(.httpTooManyRedirects)`. Default 20, URLSession's limit; 0 returns every 3xx
    /// response as it is.
    public var maximumRedirects: Int
    /// Follow a redirect from https to http. Default `false`: a downgrade would send the rest of
    /// the exchange in clear text, and it fails with
    /// `URLError(.appTransportSecurityRequiresSecureConnection)`.
    public var allowsInsecureRedirects: Bool
    /// Header names, beyond `Authorization`, `Cookie` and `Proxy-Authorization`, removed when a
    /// redirect changes origin; compared case-insensitively.
    public var sensitiveHeaderNames: Set<String> {
        didSet { lowercasedSensitiveNames = Self.lowercased(sensitiveHeaderNames) }
    }

    private var lowercasedSensitiveNames: Set<String>

    /// URLSession's limit of 20, no downgrades, and only the always-sensitive headers.
    public init(maximumRedirects: Int = 20, allowsInsecureRedirects: Bool = false, sensitiveHeaderNames: Set<String> = []) {
        self.maximumRedirects = maximumRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.sensitiveHeaderNames = sensitiveHeaderNames
        lowercasedSensitiveNames = Self.lowercased(sensitiveHeaderNames)
    }

    /// Headers that describe a request body, removed with it when a redirect changes the method
    /// to GET (Fetch's "request-body-header name").
    private static let bodyHeaderNames = ["Content-Type", "Content-Length", "Content-Encoding", "Content-Language", "Content-Location"]

    /// Whether `statusCode` is one of the redirects this policy can follow. Asked of every
    /// response, so a switch rather than a hashed set.
    package static func isRedirect(_ statusCode: Int) -> Bool {
        switch statusCode {
        case 301, 302, 303, 307, 308: true
        default: false
        }
    }

    /// What to do after `request` was answered with `statusCode` and `location`, when
    /// `redirectsSoFar` redirects were followed before it.
    package func decision(after request: URLRequest, statusCode: Int, location: String?, redirectsSoFar: Int) -> Decision {
        var upload: RequestBody?
        return decision(after: request, uploading: &upload, statusCode: statusCode, location: location, redirectsSoFar: redirectsSoFar)
    }

    /// ``decision(after:statusCode:location:redirectsSoFar:)`` for a request sent with `upload`
    /// as its body, which becomes the upload of the next hop: dropped with the method when it
    /// turns into GET, kept otherwise, and a failure when it cannot be sent again.
    package func decision(
        after request: URLRequest, uploading upload: inout RequestBody?, statusCode: Int, location: String?, redirectsSoFar: Int
    ) -> Decision {
        guard Self.isRedirect(statusCode), let location, let currentURL = request.url,
              let target = URL(string: location, relativeTo: currentURL)?.absoluteURL
        else { return .deliver }
        // A Location such as file:, ftp: or javascript: is never followed; the 3xx is the answer.
        // Nor is a Unix socket, unless the request is on that socket already: a server must not
        // send a client to a local socket it never chose.
        guard let scheme = target.scheme?.lowercased(),
              scheme == "http" || scheme == "https" || Self.staysOnSocket(target, from: currentURL),
              let host = target.host, !host.isEmpty
        else { return .deliver }
        // 0 (or less) turns following off: the 3xx is the answer.
        guard maximumRedirects > 0 else { return .deliver }
        guard redirectsSoFar < maximumRedirects else {
            return .fail(.httpTooManyRedirects, message: "stopped after \(maximumRedirects) redirects (the limit)")
        }
        if currentURL.scheme?.lowercased() == "https", scheme == "http", !allowsInsecureRedirects {
            return .fail(
                .appTransportSecurityRequiresSecureConnection,
                message: "refused a redirect from https to \(target.redactedString): it would continue in clear text"
            )
        }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        if (statusCode == 303 && method != "HEAD") || ((statusCode == 301 || statusCode == 302) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            upload = nil
            for name in Self.bodyHeaderNames { next.setValue(nil, forHTTPHeaderField: name) }
        }
        // A stream body was consumed by the first request and cannot be sent again.
        if next.httpBodyStream != nil || upload?.isReplayable == false {
            return .fail(
                .requestBodyStreamExhausted,
                message: "a \(statusCode) redirect must resend the body, and a body stream cannot be read twice"
            )
        }
        if Self.origin(of: currentURL) != Self.origin(of: target) {
            // Removed from the request itself, so they stay removed for the rest of the chain,
            // even if it comes back to the first origin.
            for name in (next.allHTTPHeaderFields ?? [:]).keys where isSensitive(name) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return .follow(next)
    }

    private func isSensitive(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return Self.alwaysSensitiveHeaderNames.contains(lowercased) || lowercasedSensitiveNames.contains(lowercased)
    }

    /// Whether `target` names the same Unix socket, with the same scheme, as `current`.
    private static func staysOnSocket(_ target: URL, from current: URL) -> Bool {
        target.namesUnixSocket && target.scheme?.lowercased() == current.scheme?.lowercased()
            && target.host(percentEncoded: true) == current.host(percentEncoded: true)
    }

    /// Scheme, host and port, with the scheme's default port filled in.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }

    private static func lowercased(_ names: Set<String>) -> Set<String> {
        Set(names.map { $0.lowercased() })
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.maximumRedirects == rhs.maximumRedirects && lhs.allowsInsecureRedirects == rhs.allowsInsecureRedirects
            && lhs.lowercasedSensitiveNames == rhs.lowercasedSensitiveNames
    }
}
