#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension CurlError {
    /// What libcurl reports about a transfer that failed at its proxy, read once it ended.
    struct ProxyOutcome: Sendable, Equatable {
        /// The `CURLcode` the transfer ended with.
        var code: Int
        /// libcurl's message.
        var libcurlSaid: String
        /// The status the proxy answered `CONNECT` with; 0 when none was sent or answered.
        var connectStatus: Int
        /// The `CURLINFO_PROXY_ERROR` family, for `CURLE_PROXY`.
        var proxyError: Curl.ProxyError
    }

    /// The `URLError` code and error for a transfer that failed because of its proxy, or nil
    /// when the proxy is not why (or there is none). The message says what the proxy did and
    /// keeps libcurl's words after it; it never holds the proxy's credentials.
    static func proxyFailure(_ outcome: ProxyOutcome, proxy: CurlTransport.Proxy) -> (URLError.Code, CurlError)? {
        guard proxy.isEnabled else { return nil }
        let said = proxy.redacting(outcome.libcurlSaid)
        func failure(_ code: URLError.Code, _ what: String) -> (URLError.Code, CurlError) {
            (code, CurlError(kind: .transfer, curlCode: outcome.code, message: "\(what); libcurl said: \(said)"))
        }
        let status = outcome.connectStatus
        if status == 407 {
            let given = proxy.hasCredentials ? "it refused the credentials given" : "none were given"
            return failure(.userAuthenticationRequired, "the proxy requires authentication (CONNECT answered 407) and \(given)")
        }
        if status >= 300 {
            return failure(.cannotConnectToHost, "the proxy refused to open a tunnel (CONNECT answered \(status))")
        }
        switch outcome.code {
        case Curl.Code.proxy:
            switch outcome.proxyError {
            case .authentication:
                let given = proxy.hasCredentials ? "it refused the credentials given" : "none were given"
                return failure(.userAuthenticationRequired, "the SOCKS proxy requires authentication and \(given)")
            case .unresolvedTarget:
                return failure(.cannotFindHost, "the server's host name could not be resolved for the SOCKS proxy")
            case .unreachableTarget:
                return failure(.cannotConnectToHost, "the SOCKS proxy could not connect to the server")
            case .refusedByRule:
                return failure(.cannotConnectToHost, "the SOCKS proxy's rules do not allow a connection to the server")
            case .other:
                return failure(.cannotConnectToHost, "the proxy failed")
            }
        case Curl.Code.couldntResolveProxy:
            return failure(.cannotFindHost, "the proxy's host name could not be resolved")
        case Curl.Code.couldntConnect:
            // libcurl names the address it failed to connect to; only the proxy's is the proxy's
            // fault (a host on the no-proxy list is connected to directly).
            guard let address = proxy.hostAndPort, said.contains("to \(address.host) port \(address.port)") else { return nil }
            return failure(.cannotConnectToHost, "the proxy at \(address.host):\(address.port) refused the connection")
        default:
            return nil
        }
    }
}

extension CurlTransport.Proxy {
    /// `text` with the proxy's passwords, as given and percent-encoded, written as `xxxxx`.
    ///
    /// libcurl's messages name hosts and ports, not credentials; this holds whatever a later
    /// libcurl writes.
    func redacting(_ text: String) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: "xxxxx")
        }
        return text
    }

    /// The passwords this proxy holds, as given and as they appear in its URL.
    var secrets: [String] {
        var secrets: [String] = []
        if let password = credentials?.password, !password.isEmpty { secrets.append(password) }
        if let url, let components = URLComponents(string: Self.withScheme(url)) {
            if let encoded = components.percentEncodedPassword, !encoded.isEmpty { secrets.append(encoded) }
            if let password = components.password, !password.isEmpty { secrets.append(password) }
        }
        return secrets
    }

    /// Whether credentials were given, apart or in the URL.
    var hasCredentials: Bool {
        if credentials != nil { return true }
        guard let url, let components = URLComponents(string: Self.withScheme(url)) else { return false }
        return components.user != nil
    }

    /// The proxy's host and port (its scheme's default when it names none), from its URL.
    var hostAndPort: (host: String, port: Int)? {
        guard let url, let components = URLComponents(string: Self.withScheme(url)), let host = components.host else { return nil }
        // curl's defaults: 443 for an HTTPS proxy, 1080 for every other kind, HTTP included.
        return (host, components.port ?? (components.scheme?.lowercased() == "https" ? 443 : 1080))
    }
}
