import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A real proxy on 127.0.0.1 for tests: an HTTP proxy that forwards `http://` requests and
/// tunnels `CONNECT`, or a SOCKS5 server; either may require a login, and either records
/// every connection it was asked to make (``records``).
///
/// It never uses DNS: `hosts` maps made-up names (`api.test`) to addresses; IP literals and
/// `localhost` need no entry; any other name is refused as unreachable.
///
/// ```swift
/// let proxy = try await TestProxy.start(.http, login: ProxyLogin(user: "alice", password: "s3cret"))
/// // send through proxy.url, then:
/// #expect(proxy.records.map(\.command) == [.forward])
/// try await proxy.shutdown()
/// ```
package final class TestProxy: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case http
        case socks5
    }

    package let kind: Kind
    package let port: Int
    private let listener: any Channel
    private let seen: NIOLockedValueBox<[ProxyRecord]>

    private init(kind: Kind, port: Int, listener: any Channel, seen: NIOLockedValueBox<[ProxyRecord]>) {
        self.kind = kind
        self.port = port
        self.listener = listener
        self.seen = seen
    }

    /// Starts a proxy of `kind` on 127.0.0.1 and a port the system picks.
    package static func start(_ kind: Kind, login: ProxyLogin? = nil, hosts: [String: String] = [:]) async throws -> TestProxy {
        let seen = NIOLockedValueBox<[ProxyRecord]>([])
        let table = ProxyHostTable(names: Dictionary(uniqueKeysWithValues: hosts.map { ($0.key.lowercased(), $0.value) }))
        let record: @Sendable (ProxyRecord) -> Void = { record in seen.withLockedValue { $0.append(record) } }
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    switch kind {
                    case .http:
                        let negotiation = HTTPProxyNegotiation(login: login, hosts: table)
                        try channel.pipeline.syncOperations.addHandler(ProxyConnectionHandler(negotiation: negotiation, record: record))
                    case .socks5:
                        let negotiation = SOCKS5Negotiation(login: login, hosts: table)
                        try channel.pipeline.syncOperations.addHandler(ProxyConnectionHandler(negotiation: negotiation, record: record))
                    }
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw TestProxyError.noLocalAddress
        }
        return TestProxy(kind: kind, port: port, listener: listener, seen: seen)
    }

    /// The proxy's URL with `scheme` (`http`, `socks5`, `socks5h`), and `credentials` as its
    /// user information when given (`alice:s3cret`, percent-encoded by the caller).
    package func url(scheme: String? = nil, credentials: String? = nil) -> String {
        let scheme = scheme ?? (kind == .http ? "http" : "socks5h")
        return "\(scheme)://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)"
    }

    /// Every connection the proxy was asked to make, in order, refused ones included.
    package var records: [ProxyRecord] { seen.withLockedValue { $0 } }

    /// Stops listening; relayed connections end with their peers.
    package func shutdown() async throws {
        do {
            try await listener.close()
        } catch ChannelError.alreadyClosed {}
    }
}

package enum TestProxyError: Error {
    case noLocalAddress
}
