/// What a test proxy saw of one client connection: what it was asked to reach and with which
/// credentials, so a test proves a request went through the proxy (or did not).
package struct ProxyRecord: Sendable, Equatable, CustomStringConvertible {
    /// How the client asked.
    package enum Command: String, Sendable {
        /// An HTTP proxy's forwarded request (`GET http://host/path`).
        case forward
        /// An HTTP proxy's `CONNECT host:port` tunnel.
        case connect
        /// A SOCKS5 `CONNECT` with the host as a name (`socks5h://`: the proxy resolves it).
        case socksName
        /// A SOCKS5 `CONNECT` with the host as an address (`socks5://`: the client resolved it).
        case socksAddress
    }

    package var command: Command
    /// The host as the client named it: a name, or an address.
    package var host: String
    package var port: Int
    /// The request target of a forwarded request (`http://api.test:8080/get`); nil otherwise.
    package var target: String?
    /// The user the client authenticated as; nil when it sent no credentials.
    package var user: String?
    /// Whether the proxy let the connection through (credentials right, host known).
    package var accepted: Bool

    package init(command: Command, host: String, port: Int, target: String?, user: String?, accepted: Bool) {
        self.command = command
        self.host = host
        self.port = port
        self.target = target
        self.user = user
        self.accepted = accepted
    }

    package var description: String {
        "\(command) \(host):\(port) user=\(user ?? "-") accepted=\(accepted)"
    }
}

/// A user name and password a test proxy requires.
package struct ProxyLogin: Sendable, Equatable {
    package var user: String
    package var password: String

    package init(user: String, password: String) {
        self.user = user
        self.password = password
    }
}
