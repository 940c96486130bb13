import Courier

extension CurlTransport {
    /// The proxy a ``CurlTransport`` sends its requests through: none, one named by URL, or the
    /// one the process environment names, and only when asked for.
    ///
    /// ```swift
    /// var configuration = CurlTransport.Configuration()
    /// configuration.proxy = .url("socks5h://proxy.internal:1080", credentials: .init(user: "svc", password: secret))
    /// ```
    ///
    /// The URL's scheme says what kind of proxy it is, with curl's names: `http://` forwards
    /// http URLs and tunnels https ones with `CONNECT`; `https://` does the same over TLS to
    /// the proxy; `socks5h://` hands the host name to the proxy, which resolves it;
    /// `socks5://` resolves it here and hands over the address; `socks4://` and `socks4a://`
    /// likewise. A URL without a scheme is an HTTP proxy, as curl has it.
    ///
    /// Requests sent over a Unix domain socket never use the proxy (libcurl's rule). A
    /// forwarding proxy's `407 Proxy Authentication Required` to an http URL is a response,
    /// with its `Proxy-Authenticate` challenge; a `407` to `CONNECT` (an https URL) fails with
    /// `URLError(.userAuthenticationRequired)`.
    ///
    /// Credentials go in the URL's user information (`http://user:password@proxy:3128`,
    /// percent-encoded) or in ``credentials``, which wins. Neither ever appears in an error, a
    /// ``description`` or a log line: they read `xxxxx` there.
    public struct Proxy: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        enum Source: Sendable, Hashable {
            case none
            case environment
            case url(String)
        }

        let source: Source

        /// The user and password given apart from the URL; `nil` when the URL carries them or
        /// the proxy needs none.
        public let credentials: ProxyCredentials?

        /// Hosts reached directly rather than through the proxy, with curl's `NOPROXY` rules:
        /// a host name matches itself and its subdomains (`example.com` and `.example.com` both
        /// match `api.example.com`), an IP address or CIDR range (`10.0.0.0/8`) matches those
        /// addresses, `*` alone matches every host. Names are compared without letter case;
        /// nothing is resolved to compare.
        public let noProxy: [String]

        /// No proxy, and none from the environment either: the default.
        public static let none = Proxy(source: .none, credentials: nil, noProxy: [])

        /// The proxy the process environment names, read by libcurl as curl reads it:
        /// `http_proxy` (lower case only) for http URLs, `https_proxy` or `HTTPS_PROXY` for
        /// https, `all_proxy` or `ALL_PROXY` otherwise, and `no_proxy` or `NO_PROXY` for the
        /// hosts reached directly. Nothing is used when none is set.
        public static let environment = Proxy(source: .environment, credentials: nil, noProxy: [])

        /// The proxy at `url`, e.g. `http://proxy.internal:3128` or `socks5h://127.0.0.1:1080`.
        ///
        /// - Parameters:
        ///   - url: The proxy's URL: its scheme (`http`, `https`, `socks4`, `socks4a`, `socks5`,
        ///     `socks5h`), host and port, and optionally its user and password.
        ///   - credentials: The proxy's user and password, when they are not in `url`.
        ///   - noProxy: Hosts reached directly (see ``noProxy``).
        public static func url(_ url: String, credentials: ProxyCredentials? = nil, noProxy: [String] = []) -> Proxy {
            Proxy(source: .url(url), credentials: credentials, noProxy: noProxy)
        }

        /// The proxy's URL as it was given, credentials included; `nil` for ``none`` and
        /// ``environment``. Never log it: ``description`` is the text for that.
        package var url: String? {
            if case .url(let url) = source { url } else { nil }
        }

        /// Whether requests go through a proxy named here or in the environment.
        package var isEnabled: Bool { source != .none }

        /// `none`, `environment`, or the URL with any password as `xxxxx`, then the credentials'
        /// user and the no-proxy list: safe for a log line.
        public var description: String {
            switch source {
            case .none: return "none"
            case .environment: return "environment"
            case .url(let url):
                var text = redactedURLText(Self.withScheme(url))
                if let credentials { text += " (\(credentials))" }
                if !noProxy.isEmpty { text += " except \(noProxy.joined(separator: ","))" }
                return text
            }
        }

        /// Only ``description``: `dump(_:)` and debuggers show no password either.
        public var customMirror: Mirror { Mirror(self, children: ["description": description]) }

        /// The schemes libcurl reads a proxy URL's kind from.
        static let schemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

        /// `url` with curl's default scheme, `http://`, when it names none.
        static func withScheme(_ url: String) -> String {
            url.contains("://") ? url : "http://" + url
        }
    }

    /// A user name and password for a proxy, kept apart from its URL so neither needs
    /// percent-encoding.
    public struct ProxyCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
        public var user: String
        public var password: String

        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }

        /// curl's `-U user:password` syntax: split at the first colon, so the password may
        /// hold colons; without one the password is empty.
        package init(userAndPassword: String) {
            if let colon = userAndPassword.firstIndex(of: ":") {
                user = String(userAndPassword[..<colon])
                password = String(userAndPassword[userAndPassword.index(after: colon)...])
            } else {
                user = userAndPassword
                password = ""
            }
        }

        /// `user:xxxxx`: the password never appears.
        public var description: String { "\(user):xxxxx" }

        /// Only ``description``: `dump(_:)` and debuggers show no password either.
        public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
    }
}
