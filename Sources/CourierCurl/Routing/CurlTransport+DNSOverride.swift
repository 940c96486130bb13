extension CurlTransport {
    /// A host name and port answered with fixed addresses instead of DNS
    /// (`CURLOPT_RESOLVE`, curl's `--resolve host:port:address`).
    ///
    /// The URL, the `Host` header and TLS's name checks keep the host name; only the address
    /// connected to changes. For a name that has no DNS record (`api.test`), or to pin a
    /// service to one replica.
    ///
    /// ```swift
    /// configuration.resolve = [.init(host: "api.test", port: 8080, addresses: ["127.0.0.1"])]
    /// ```
    public struct ResolveOverride: Sendable, Hashable, CustomStringConvertible {
        public var host: String
        public var port: Int
        /// IPv4 or IPv6 addresses (`::1`, with or without brackets), tried in order.
        public var addresses: [String]

        public init(host: String, port: Int, addresses: [String]) {
            self.host = host
            self.port = port
            self.addresses = addresses
        }

        /// Parses curl's syntax, `host:port:address[,address…]`, as `--resolve` takes it.
        ///
        /// - Throws: ``RouteSyntaxError`` saying which part is missing or malformed.
        package init(curlSyntax text: String) throws(RouteSyntaxError) {
            let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 3 else {
                throw RouteSyntaxError(option: "--resolve", value: text, expected: "host:port:address[,address…]")
            }
            guard let port = Int(parts[1]) else {
                throw RouteSyntaxError(option: "--resolve", value: text, expected: "a port number after the host")
            }
            self.init(host: parts[0], port: port, addresses: parts[2].split(separator: ",").map(String.init))
            if let problem = RouteCheck.problem(with: self) {
                throw RouteSyntaxError(option: "--resolve", value: text, expected: problem)
            }
        }

        /// The entry as `CURLOPT_RESOLVE` takes it: IPv6 addresses in brackets.
        public var description: String {
            "\(host):\(port):" + addresses.map(RouteCheck.bracketed).joined(separator: ",")
        }
    }

    /// A connection for one host and port made to another host and port instead
    /// (`CURLOPT_CONNECT_TO`, curl's `--connect-to`).
    ///
    /// As with ``ResolveOverride``, the URL, the `Host` header and TLS keep the requested
    /// name; the connection goes to `connectHost` (resolved normally, or by a
    /// ``ResolveOverride``) on `connectPort`. `nil` host or port match any, and a `nil`
    /// `connectHost` or `connectPort` keeps the requested one.
    ///
    /// ```swift
    /// configuration.connectTo = [.init(host: "api.test", port: 443, connectHost: "127.0.0.1", connectPort: 8443)]
    /// ```
    public struct ConnectOverride: Sendable, Hashable, CustomStringConvertible {
        public var host: String?
        public var port: Int?
        public var connectHost: String?
        public var connectPort: Int?

        public init(host: String?, port: Int?, connectHost: String?, connectPort: Int?) {
            self.host = host
            self.port = port
            self.connectHost = connectHost
            self.connectPort = connectPort
        }

        /// Parses curl's syntax, `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`, each part
        /// optional, an IPv6 address in brackets.
        ///
        /// - Throws: ``RouteSyntaxError`` saying which part is malformed.
        package init(curlSyntax text: String) throws(RouteSyntaxError) {
            let expected = "HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT (an empty part matches or keeps any)"
            guard let parts = RouteCheck.splitKeepingBrackets(text), parts.count == 4 else {
                throw RouteSyntaxError(option: "--connect-to", value: text, expected: expected)
            }
            func port(_ text: String) throws(RouteSyntaxError) -> Int? {
                if text.isEmpty { return nil }
                guard let port = Int(text) else {
                    throw RouteSyntaxError(option: "--connect-to", value: text, expected: "a port number, or nothing")
                }
                return port
            }
            self.init(
                host: parts[0].isEmpty ? nil : RouteCheck.unbracketed(parts[0]),
                port: try port(parts[1]),
                connectHost: parts[2].isEmpty ? nil : RouteCheck.unbracketed(parts[2]),
                connectPort: try port(parts[3])
            )
            if let problem = RouteCheck.problem(with: self) {
                throw RouteSyntaxError(option: "--connect-to", value: text, expected: problem)
            }
        }

        /// The entry as `CURLOPT_CONNECT_TO` takes it.
        public var description: String {
            [host.map(RouteCheck.bracketed) ?? "", port.map(String.init) ?? "",
             connectHost.map(RouteCheck.bracketed) ?? "", connectPort.map(String.init) ?? ""]
                .joined(separator: ":")
        }
    }

    /// A `--resolve`, `--connect-to` or other routing value that does not parse.
    package struct RouteSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The curl option the syntax is that of, e.g. `--resolve`.
        package var option: String
        package var value: String
        /// What was expected instead.
        package var expected: String

        public var description: String {
            "\(option) \(value.debugDescription) is not accepted: expected \(expected)"
        }
    }
}
