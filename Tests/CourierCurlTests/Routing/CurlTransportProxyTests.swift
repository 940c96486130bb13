#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierProxyTestSupport
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CurlTransport through real proxies on loopback (`TestProxy`: an HTTP proxy that forwards and
/// tunnels, a SOCKS5 server), each recording what it was asked to reach, so every test proves
/// where its request went. Names such as `api.test` exist only in the proxies' tables or in
/// `CURLOPT_RESOLVE`: nothing is looked up in DNS.
@Suite("CurlTransport through proxies")
struct CurlTransportProxyTests {
    static let login = ProxyLogin(user: "alice", password: "pa:ss@w0rd")
    /// `login` as URL user information.
    static let userInfo = "alice:pa%3Ass%40w0rd"

    /// A proxy of `kind` requiring `login` (none when nil), a test server, and a transport with
    /// `proxy` made from the proxy's port; all stopped afterwards.
    private func withProxy<T>(
        _ kind: TestProxy.Kind,
        login: ProxyLogin? = CurlTransportProxyTests.login,
        configure: (TestProxy, TestServer, inout CurlTransport.Configuration) -> Void,
        _ body: (TestProxy, TestServer, CurlTransport) async throws -> T
    ) async throws -> T {
        let proxy = try await TestProxy.start(kind, login: login, hosts: ["api.test": "127.0.0.1"])
        let server = try await TestServer.start()
        var configuration = CurlTransport.Configuration()
        configure(proxy, server, &configuration)
        let transport = try CurlTransport(configuration: configuration)
        let result = await outcome { try await body(proxy, server, transport) }
        await transport.shutdown()
        try await server.shutdown()
        try await proxy.shutdown()
        return try result.get()
    }

    @Test func anHTTPProxyForwardsAnHTTPRequestWithTheCredentialsOfItsURL() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(credentials: Self.userInfo))
        }) { proxy, server, transport in
            let echo = try await transport.echo(request(URL(string: "http://api.test:\(server.port)/get?via=proxy")!))
            #expect(echo.path == "/get")
            #expect(echo.header("Host") == "api.test:\(server.port)")
            #expect(echo.header("Proxy-Authorization") == nil, "the proxy keeps its credentials")
            #expect(proxy.records == [
                ProxyRecord(command: .forward, host: "api.test", port: server.port,
                            target: "http://api.test:\(server.port)/get?via=proxy", user: "alice", accepted: true),
            ])
        }
    }

    @Test func aBodyGoesThroughTheProxyWithItsRequest() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(credentials: Self.userInfo))
        }) { proxy, server, transport in
            let body = String(repeating: "courier ", count: 20_000)
            let echo = try await transport.echo(request(URL(string: "http://api.test:\(server.port)/anything")!, method: "POST", body: body))
            #expect(echo.bodyText == body)
            #expect(proxy.records.map(\.command) == [.forward])
        }
    }

    @Test func credentialsGivenApartFromTheURLNeedNoEncoding() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(), credentials: .init(user: "alice", password: "pa:ss@w0rd"))
        }) { proxy, server, transport in
            let (_, response) = try await transport.http(request(URL(string: "http://api.test:\(server.port)/get")!))
            #expect(response.statusCode == 200)
            #expect(proxy.records.map(\.user) == ["alice"])
            #expect(proxy.records.map(\.accepted) == [true])
        }
    }

    /// A password with every character that means something in a URL, `%` before hex digits
    /// among them, reaches the proxy as it was written, over each kind of proxy and whichever
    /// form it was given in: apart (taken literally) or in the URL (percent-encoded there).
    @Test(arguments: [TestProxy.Kind.http, .socks5], [false, true])
    func aPasswordWithReservedCharactersReachesTheProxyAsWritten(kind: TestProxy.Kind, inURL: Bool) async throws {
        let password = "p%41ss:w/rd@100%"
        let login = ProxyLogin(user: "al%69ce", password: password)
        try await withProxy(kind, login: login, configure: { proxy, server, configuration in
            let scheme = kind == .http ? "http" : "socks5h"
            if inURL {
                configuration.proxy = .url(proxy.url(scheme: scheme, credentials: "al%2569ce:p%2541ss%3Aw%2Frd%40100%25"))
            } else {
                configuration.proxy = .url(proxy.url(scheme: scheme), credentials: .init(user: "al%69ce", password: password))
            }
            configuration.resolve = [.init(host: "api.test", port: server.port, addresses: ["127.0.0.1"])]
        }) { proxy, server, transport in
            let (_, response) = try await transport.http(request(URL(string: "http://api.test:\(server.port)/get")!))
            #expect(response.statusCode == 200)
            #expect(proxy.records.map(\.user) == ["al%69ce"])
            #expect(proxy.records.map(\.accepted) == [true])
        }
    }

    /// libcurl before 8.8 decodes what it is given apart; the engine escapes it there only.
    @Test(arguments: [(0x07_4C_00, "a%2541:%25%25x"), (0x07_58_01, "a%2541:%25%25x"), (0x08_08_00, "a%41:%%x"), (0x08_0E_01, "a%41:%%x")])
    func credentialsAreEscapedOnlyForALibcurlThatDecodesThem(versionNumber: Int, expected: String) {
        let features = CurlFeatures(versionNumber: versionNumber, zlib: true, brotli: true, zstd: true, http2: true)
        let escaped = CurlTransport.ProxyCredentials(user: "a%41", password: "%%x").escapedForLibcurl(features: features)
        #expect("\(escaped.user):\(escaped.password)" == expected)
    }

    @Test func anHTTPSRequestGoesThroughACONNECTTunnel() async throws {
        try await withHTTPSServer(.caSigned) { https, files in
            try await withProxy(.http, configure: { proxy, _, configuration in
                configuration.proxy = .url(proxy.url(credentials: Self.userInfo))
                configuration.caBundlePath = files.caBundlePath
            }) { proxy, _, transport in
                let url = URL(string: "https://localhost:\(https.port)/get")!
                let (_, response) = try await transport.http(request(url))
                #expect(response.statusCode == 200)
                #expect(proxy.records == [
                    ProxyRecord(command: .connect, host: "localhost", port: https.port, target: nil, user: "alice", accepted: true),
                ])
            }
        }
    }

    /// socks5h hands the name to the proxy, which resolves it; socks5 resolves it here (from
    /// `resolve`, not DNS) and hands over the address.
    @Test(arguments: [("socks5h", ProxyRecord.Command.socksName, "api.test"), ("socks5", .socksAddress, "127.0.0.1")])
    func aSOCKS5ProxyConnectsWithRemoteOrLocalNameResolution(scheme: String, command: ProxyRecord.Command, host: String) async throws {
        try await withProxy(.socks5, configure: { proxy, server, configuration in
            configuration.proxy = .url(proxy.url(scheme: scheme), credentials: .init(user: "alice", password: "pa:ss@w0rd"))
            configuration.resolve = [.init(host: "api.test", port: server.port, addresses: ["127.0.0.1"])]
        }) { proxy, server, transport in
            let echo = try await transport.echo(request(URL(string: "http://api.test:\(server.port)/get")!))
            #expect(echo.header("Host") == "api.test:\(server.port)")
            #expect(proxy.records == [
                ProxyRecord(command: command, host: host, port: server.port, target: nil, user: "alice", accepted: true),
            ])
        }
    }

    /// The proxy sees the other host, and not the one on the no-proxy list: both halves, so
    /// the test fails whether the list is ignored or the proxy is.
    @Test func aHostOnTheNoProxyListIsReachedDirectly() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(credentials: Self.userInfo), noProxy: ["localhost", "127.0.0.0/8"])
        }) { proxy, server, transport in
            let direct = try await transport.echo(request(server.url("/get?direct")))
            #expect(direct.query == "direct")
            #expect(proxy.records.isEmpty)
            _ = try await transport.echo(request(URL(string: "http://api.test:\(server.port)/get?proxied")!))
            #expect(proxy.records.map(\.host) == ["api.test"])
            #expect(server.requestCount == 2)
        }
    }

    @Test func aCONNECTRefusedWith407IsUserAuthenticationRequiredWithoutThePassword() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(), credentials: .init(user: "alice", password: "wrong-secret"))
        }) { proxy, _, transport in
            let url = URL(string: "https://localhost:1/get")!
            let error = try await #require(urlError { _ = try await transport.data(for: request(url)) })
            #expect(error.code == .userAuthenticationRequired)
            let text = error.localizedDescription
            #expect(text.contains("the proxy requires authentication (CONNECT answered 407) and it refused the credentials given"), "\(text)")
            #expect(text.contains("(GET https://localhost:1/get)"), "\(text)")
            #expect(!text.contains("wrong-secret"))
            #expect(!"\(error)".contains("wrong-secret"))
            #expect(proxy.records.map(\.accepted) == [false])
        }
    }

    /// A forwarding proxy's 407 is an HTTP response, as it is to URLSession and to curl: it
    /// carries the proxy's `Proxy-Authenticate` challenge for the caller to read.
    @Test func aForwardedRequestRefusedWith407IsTheProxysResponse() async throws {
        try await withProxy(.http, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url())
        }) { _, server, transport in
            let (_, response) = try await transport.http(request(URL(string: "http://api.test:\(server.port)/get")!))
            #expect(response.statusCode == 407)
            #expect(response.value(forHTTPHeaderField: "Proxy-Authenticate") == "Basic realm=\"courier-test\"")
            #expect(server.requestCount == 0)
        }
    }

    @Test(arguments: [CurlTransport.ProxyCredentials(user: "alice", password: "wrong-secret"), nil])
    func aSOCKS5ProxyRefusingTheLoginIsUserAuthenticationRequired(credentials: CurlTransport.ProxyCredentials?) async throws {
        try await withProxy(.socks5, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(), credentials: credentials)
        }) { _, server, transport in
            let error = try await #require(urlError { _ = try await transport.data(for: request(URL(string: "http://api.test:\(server.port)/get")!)) })
            #expect(error.code == .userAuthenticationRequired)
            let given = credentials == nil ? "none were given" : "it refused the credentials given"
            #expect(error.localizedDescription.contains("the SOCKS proxy requires authentication and \(given)"), "\(error.localizedDescription)")
            #expect(!error.localizedDescription.contains("wrong-secret"))
            #expect(server.requestCount == 0)
        }
    }

    @Test func aSOCKS5ProxyThatCannotReachTheHostIsCannotConnectToHost() async throws {
        try await withProxy(.socks5, login: nil, configure: { proxy, _, configuration in
            configuration.proxy = .url(proxy.url(scheme: "socks5h"))
        }) { proxy, _, transport in
            let error = try await #require(urlError { _ = try await transport.data(for: request(URL(string: "http://unknown.test/get")!)) })
            #expect(error.code == .cannotConnectToHost)
            #expect(error.localizedDescription.contains("the SOCKS proxy could not connect to the server"), "\(error.localizedDescription)")
            #expect(proxy.records.map(\.host) == ["unknown.test"])
        }
    }

    @Test func aProxyThatRefusesConnectionsIsNamedWithoutItsPassword() async throws {
        let refusing = try await RefusingPort.open()
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .url("http://alice:hunter2@127.0.0.1:\(refusing.port)")
        let transport = try CurlTransport(configuration: configuration)
        let server = try await TestServer.start()
        let error = await urlError { _ = try await transport.data(for: request(server.url("/get"))) }
        await transport.shutdown()
        try await refusing.close()
        try await server.shutdown()
        let failure = try #require(error)
        #expect(failure.code == .cannotConnectToHost)
        #expect(failure.localizedDescription.hasPrefix("could not connect to the server: the proxy at 127.0.0.1:\(refusing.port) refused the connection"),
                "\(failure.localizedDescription)")
        #expect(!failure.localizedDescription.contains("hunter2"))
        #expect(!String(describing: CurlError.underlying(of: failure) as Any).contains("hunter2"))
        #expect(server.requestCount == 0)
    }

    @Test func aProxyURLThatLibcurlCannotUseIsRefusedWhenTheTransportIsMade() throws {
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .url("ftp://alice:hunter2@proxy.test:21")
        let error = try #require(throws: CurlError.self) { try CurlTransport(configuration: configuration) }
        #expect(error.kind == .option)
        #expect(error.message == "proxy: ftp://alice:xxxxx@proxy.test:21 has a scheme libcurl cannot use for a proxy; accepted: http, https, socks4, socks4a, socks5, socks5h")
    }

    @Test func aProxyDescribesItselfWithoutItsPassword() {
        let proxy = CurlTransport.Proxy.url("socks5h://svc:hunter2@proxy.test:1080", credentials: .init(user: "svc", password: "hunter3"), noProxy: ["localhost"])
        #expect(proxy.description == "socks5h://svc:xxxxx@proxy.test:1080 (svc:xxxxx) except localhost")
        #expect(CurlTransport.Proxy.url("proxy.test:3128").description == "http://proxy.test:3128")
        #expect(CurlTransport.Proxy.none.description == "none")
        #expect(CurlTransport.Proxy.environment.description == "environment")
        #expect(proxy.redacting("a hunter2 and hunter3") == "a xxxxx and xxxxx")
    }

    /// The URLError `operation` throws; nil, and an issue recorded, otherwise.
    private func urlError(_ operation: () async throws -> Void) async -> URLError? {
        do {
            try await operation()
            Issue.record("the request succeeded")
        } catch let error as URLError {
            return error
        } catch {
            Issue.record("expected a URLError, got \(error)")
        }
        return nil
    }
}
