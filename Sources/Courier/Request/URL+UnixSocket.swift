import Foundation

// A request sent over a Unix domain socket names the socket in its URL, as AsyncHTTPClient
// spells it: `http+unix://<percent-encoded socket path>/<path>`. The URL alone carries it, so
// it survives every layer a `URLRequest` passes through (redirects resolve a relative
// `Location` against it and stay on the socket, logs and errors show it), and no option travels
// beside the request where a layer could drop it. `CurlTransport` sends it; `URLSessionTransport`
// refuses it before sending anything.

extension URL {
    /// The scheme of a URL sent over a Unix domain socket: `http+unix`, or `https+unix` for
    /// TLS over the socket.
    package static let unixSocketSchemes: Set<String> = ["http+unix", "https+unix"]

    /// A URL that sends `path` (with its query, if any) to the HTTP server listening on the
    /// Unix domain socket at `socketPath`, e.g.
    /// `URL.unixSocket("/var/run/docker.sock", path: "/v1.43/info")` is
    /// `http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info`. Requests for it send
    /// `Host: localhost`.
    ///
    /// - Parameters:
    ///   - socketPath: The socket's path in the file system.
    ///   - path: The request's path on the server, with its query if any; `/` by default.
    ///   - secure: TLS over the socket (`https+unix`).
    /// - Returns: `nil` when `socketPath` is empty or `path` does not start with `/`.
    public static func unixSocket(_ socketPath: String, path: String = "/", secure: Bool = false) -> URL? {
        guard !socketPath.isEmpty, path.hasPrefix("/"),
              let host = socketPath.addingPercentEncoding(withAllowedCharacters: .unixSocketHostAllowed)
        else { return nil }
        return URL(string: "\(secure ? "https+unix" : "http+unix")://\(host)\(path)")
    }

    /// Whether this URL names a Unix domain socket (its scheme is one of ``unixSocketSchemes``).
    package var namesUnixSocket: Bool {
        scheme.map { Self.unixSocketSchemes.contains($0.lowercased()) } ?? false
    }

    /// For an `http+unix` or `https+unix` URL: the socket's path, and the `http` or `https`
    /// URL to send over it, whose host is `localhost`. `nil` for any other URL, or one whose
    /// host is not a percent-encoded path.
    package var unixSocketRoute: (socketPath: String, url: URL)? {
        guard let scheme = scheme?.lowercased(), Self.unixSocketSchemes.contains(scheme),
              let host = host(percentEncoded: true), let socketPath = host.removingPercentEncoding, !socketPath.isEmpty,
              var components = URLComponents(url: self, resolvingAgainstBaseURL: true)
        else { return nil }
        components.scheme = scheme == "https+unix" ? "https" : "http"
        components.percentEncodedHost = "localhost"
        components.port = nil
        components.user = nil
        components.password = nil
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        guard let url = components.url else { return nil }
        return (socketPath, url)
    }
}

extension CharacterSet {
    /// What a socket path keeps unencoded in a URL's host: letters, digits and `-._~`; every
    /// `/` and anything else is percent-encoded.
    fileprivate static let unixSocketHostAllowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
}
