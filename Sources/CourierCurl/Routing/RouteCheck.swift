import Courier
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The checks a routing setting passes before libcurl sees it. libcurl skips a
/// `CURLOPT_RESOLVE` entry it cannot parse with a line on its verbose log, and reads an
/// unknown proxy scheme only when a request fails; a setting that would be ignored or fail
/// later is refused when the transport is made instead, saying which one and why.
package enum RouteCheck {
    /// Why `configuration`'s routing settings cannot be used, or nil when they can.
    static func problem(with configuration: CurlTransport.Configuration) -> String? {
        if let problem = problem(with: configuration.proxy) { return "proxy: \(problem)" }
        if let path = configuration.unixSocketPath, let problem = problem(withSocketPath: path) {
            return "unixSocketPath: \(problem)"
        }
        for entry in configuration.resolve {
            if let problem = problem(with: entry) { return "resolve \(entry): \(problem)" }
        }
        for entry in configuration.connectTo {
            if let problem = problem(with: entry) { return "connectTo \(entry): \(problem)" }
        }
        if let url = configuration.dohURL, let problem = problem(withDoHURL: url) { return "dohURL: \(problem)" }
        return nil
    }

    /// Why `url` cannot be a DNS-over-HTTPS server, or nil when it can. libcurl takes any
    /// text and reports a bad one only as a name that did not resolve; plain `http` would let
    /// anyone on the path answer for every host, which DoH exists to prevent.
    package static func problem(withDoHURL url: URL) -> String? {
        let shown = redactedURLText(url.absoluteString)
        guard !hasControlCharacter(url.absoluteString), let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "\(shown.debugDescription) is not a URL"
        }
        guard components.scheme?.lowercased() == "https" else { return "\(shown) is not an https URL" }
        guard let host = components.percentEncodedHost, !host.isEmpty else { return "\(shown) names no host" }
        if let port = components.port, !(1...65535).contains(port) { return "\(shown) has a port outside 1...65535" }
        return nil
    }

    package static func problem(with proxy: CurlTransport.Proxy) -> String? {
        if let credentials = proxy.credentials {
            if hasControlCharacter(credentials.user) || hasControlCharacter(credentials.password) {
                return "the credentials hold a control character"
            }
        }
        for entry in proxy.noProxy {
            if entry.isEmpty || entry.contains(",") || entry.contains(where: \.isWhitespace) || hasControlCharacter(entry) {
                return "no-proxy entry \(entry.debugDescription) is not a host name, address or CIDR range"
            }
        }
        guard let url = proxy.url else { return nil }
        let text = CurlTransport.Proxy.withScheme(url)
        let shown = redactedURLText(text)
        guard !hasControlCharacter(text), let components = URLComponents(string: text) else {
            return "\(shown.debugDescription) is not a URL"
        }
        guard let scheme = components.scheme?.lowercased(), CurlTransport.Proxy.schemes.contains(scheme) else {
            let accepted = CurlTransport.Proxy.schemes.sorted().joined(separator: ", ")
            return "\(shown) has a scheme libcurl cannot use for a proxy; accepted: \(accepted)"
        }
        guard let host = components.percentEncodedHost, !host.isEmpty else { return "\(shown) names no host" }
        if let port = components.port, !(1...65535).contains(port) { return "\(shown) has a port outside 1...65535" }
        return nil
    }

    package static func problem(withSocketPath path: String) -> String? {
        if path.isEmpty { return "the path is empty" }
        if hasControlCharacter(path) { return "the path holds a control character" }
        // sockaddr_un.sun_path: 108 bytes on Linux, 104 on Darwin, with the terminating NUL.
        let limit = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
        if path.utf8.count > limit { return "the path is \(path.utf8.count) bytes long; a Unix socket's is at most \(limit)" }
        return nil
    }

    static func problem(with entry: CurlTransport.ResolveOverride) -> String? {
        if let problem = problem(withHost: entry.host) { return problem }
        guard (1...65535).contains(entry.port) else { return "the port is not within 1...65535" }
        guard !entry.addresses.isEmpty else { return "no address is given" }
        for address in entry.addresses where !isIPAddress(unbracketed(address)) {
            return "\(address.debugDescription) is not an IPv4 or IPv6 address"
        }
        return nil
    }

    static func problem(with entry: CurlTransport.ConnectOverride) -> String? {
        for host in [entry.host, entry.connectHost].compactMap({ $0 }) {
            if let problem = problem(withHost: host) { return problem }
        }
        for port in [entry.port, entry.connectPort].compactMap({ $0 }) where !(1...65535).contains(port) {
            return "the port \(port) is not within 1...65535"
        }
        return nil
    }

    /// A name or address a URL can hold as its host; `[::1]` brackets are allowed.
    private static func problem(withHost host: String) -> String? {
        let bare = unbracketed(host)
        if bare.isEmpty { return "the host is empty" }
        if isIPAddress(bare) { return nil }
        if bare.contains(where: { $0 == ":" || $0 == "," || $0 == "/" || $0.isWhitespace }) || hasControlCharacter(bare) {
            return "\(host.debugDescription) is not a host name or address"
        }
        return nil
    }

    static func isIPAddress(_ text: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, text, &buffer) == 1 || inet_pton(AF_INET6, text, &buffer) == 1
    }

    static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// An IPv6 address in brackets, as curl's `host:port` syntaxes need; anything else as it is.
    static func bracketed(_ host: String) -> String {
        host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
    }

    static func unbracketed(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// `text` split at colons outside brackets; nil for an unclosed bracket.
    static func splitKeepingBrackets(_ text: String) -> [String]? {
        var parts: [String] = []
        var current = ""
        var inBrackets = false
        for character in text {
            switch character {
            case "[" where !inBrackets: inBrackets = true; current.append(character)
            case "]" where inBrackets: inBrackets = false; current.append(character)
            case ":" where !inBrackets: parts.append(current); current = ""
            default: current.append(character)
            }
        }
        guard !inBrackets else { return nil }
        parts.append(current)
        return parts
    }
}
