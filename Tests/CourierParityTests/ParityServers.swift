#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import CourierTestSupport
import Foundation

/// The servers one group of parity cases runs against, all on 127.0.0.1.
struct ParityServers: Sendable {
    /// Where most cases go.
    var main: TestServer
    /// A second port, for cross-origin redirects.
    var other: TestServer
    /// A server that answers every request with `Connection: close` and closes.
    var closing: TestServer
    /// A port that refuses connections.
    var refusing: RefusingPort
    /// An HTTPS server whose certificate is self-signed, so that neither transport trusts it.
    var untrustedTLS: HTTPSTestServer
    /// Its certificate and key.
    var tlsFiles: TLSTestFiles

    static func start() async throws -> ParityServers {
        // openssl runs as a child process: waiting for it must not hold one of the few
        // threads every test's tasks share.
        let tlsFiles = try await offThePool { try TLSTestFiles.make() }
        return ParityServers(
            main: try await TestServer.start(),
            other: try await TestServer.start(),
            closing: try await TestServer.start(closeEveryConnection: true),
            refusing: try await RefusingPort.open(),
            untrustedTLS: try await HTTPSTestServer.start(.selfSigned, files: tlsFiles),
            tlsFiles: tlsFiles
        )
    }

    func shutdown() async throws {
        untrustedTLS.stop()
        tlsFiles.remove()
        try await main.shutdown()
        try await other.shutdown()
        try await closing.shutdown()
        try await refusing.close()
    }

    func server(_ role: ServerRole) -> TestServer {
        switch role {
        case .main: main
        case .other: other
        case .closing: closing
        }
    }

    /// `text` with `{main}` and `{other}` replaced by those servers' base URLs and
    /// `{mainAuthority}` by `host:port`, so catalogue entries can name a server in a query
    /// (`/redirect-to?url={other}/get`) or write a whole URL.
    func substitutingBaseURLs(in text: String) -> String {
        text.replacingOccurrences(of: "{mainAuthority}", with: "\(main.host):\(main.port)")
            .replacingOccurrences(of: "{main}", with: main.baseURL.absoluteString)
            .replacingOccurrences(of: "{other}", with: other.baseURL.absoluteString)
    }
}

/// Which of the ``ParityServers`` a request goes to, or whose record a case compares.
enum ServerRole: Sendable {
    case main
    case other
    case closing
}
