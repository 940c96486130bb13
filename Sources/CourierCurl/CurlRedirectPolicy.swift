#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Decides, in Swift rather than in libcurl (`CURLOPT_FOLLOWLOCATION` stays off), whether a
/// response is a redirect to follow and what the next request is.
///
/// Method rules are URLSession's: 303 turns any method but HEAD into GET; 301 and 302 turn POST
/// into GET; 307 and 308 keep method and body; a relative `Location` resolves against the
/// current URL. Safety rules are those curl, Go and urllib3 each had to add after the fact:
/// credentials never cross origins, https never silently downgrades, and only http/https
/// locations are followed.
struct CurlRedirectPolicy: Sendable {
    /// What to do with a response.
    enum Decision: Equatable {
        /// Not a redirect to follow: hand this response to the caller.
        case deliver
        /// Send this request next.
        case follow(URLRequest)
        /// Stop the chain with this error.
        case fail(URLError.Code)
    }

    static let alwaysSensitiveHeaderNames: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    var maximumRedirects: Int
    var allowsInsecureRedirects: Bool
    /// Lowercased.
    var sensitiveHeaderNames: Set<String>

    init(configuration: CurlTransport.Configuration) {
        maximumRedirects = configuration.maximumRedirects
        allowsInsecureRedirects = configuration.allowsInsecureRedirects
        sensitiveHeaderNames = Self.alwaysSensitiveHeaderNames.union(configuration.sensitiveHeaderNames.map { $0.lowercased() })
    }

    func decision(after request: URLRequest, statusCode: Int, location: String?, redirectsSoFar: Int) -> Decision {
        guard [301, 302, 303, 307, 308].contains(statusCode),
              let location, let currentURL = request.url,
              let target = URL(string: location, relativeTo: currentURL)?.absoluteURL
        else { return .deliver }
        // A Location such as file:, ftp: or javascript: is never followed; the 3xx is the answer.
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
              target.host != nil
        else { return .deliver }
        // 0 (or less) turns following off, as the configuration documents: the 3xx is the answer.
        guard maximumRedirects > 0 else { return .deliver }
        guard redirectsSoFar < maximumRedirects else { return .fail(.httpTooManyRedirects) }
        if currentURL.scheme?.lowercased() == "https", scheme == "http", !allowsInsecureRedirects {
            return .fail(.appTransportSecurityRequiresSecureConnection)
        }
        var next = request
        next.url = target
        let method = request.httpMethod ?? "GET"
        if (statusCode == 303 && method != "HEAD") || ((statusCode == 301 || statusCode == 302) && method == "POST") {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        }
        // A stream body was consumed by the first request and cannot be sent again.
        if next.httpBodyStream != nil { return .fail(.requestBodyStreamExhausted) }
        if Self.origin(of: currentURL) != Self.origin(of: target) {
            // Removed from the request itself, so they stay removed for the rest of the chain,
            // even if it comes back to the first origin.
            for name in (next.allHTTPHeaderFields ?? [:]).keys where sensitiveHeaderNames.contains(name.lowercased()) {
                next.setValue(nil, forHTTPHeaderField: name)
            }
        }
        return .follow(next)
    }

    /// Scheme, host and port, with the scheme's default port filled in.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
