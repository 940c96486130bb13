import CourierProxyTestSupport
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier request`'s routing flags, with curl's names: `-x`, `-U`, `--noproxy`,
/// `--unix-socket`, `--resolve`, `--connect-to`, `--doh-url`. The curl transport honours them,
/// against real proxies, a server on a Unix socket and a DoH responder on loopback; urlsession refuses each before sending anything. A
/// proxy's password never reaches stderr.
@Suite struct RequestRouteTests {
    static let password = "hunter2:x"

    @Test func dashXWithCredentialsInTheURLForwardsThroughTheProxy() async throws {
        let proxy = try await TestProxy.start(.http, login: ProxyLogin(user: "alice", password: Self.password), hosts: ["api.test": "127.0.0.1"])
        let server = try await TestServer.start()
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-x", "http://alice:hunter2%3Ax@127.0.0.1:\(proxy.port)",
            "http://api.test:\(server.port)/get",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.contains("\"path\":\"/get\""), "\(result.stdoutText)")
        #expect(proxy.records.map(\.command) == [.forward])
        #expect(proxy.records.map(\.user) == ["alice"])
        try await server.shutdown()
        try await proxy.shutdown()
    }

    @Test func dashUGivesTheSOCKSProxyItsLoginAndNoproxySkipsIt() async throws {
        let proxy = try await TestProxy.start(.socks5, login: ProxyLogin(user: "alice", password: Self.password), hosts: ["api.test": "127.0.0.1"])
        let server = try await TestServer.start()
        let proxied = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-x", "socks5h://127.0.0.1:\(proxy.port)", "-U", "alice:\(Self.password)",
            "--noproxy", "127.0.0.1", "http://api.test:\(server.port)/get",
        ])
        #expect(proxied.status == 0, "\(proxied.stderrText)")
        let direct = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-x", "socks5h://127.0.0.1:\(proxy.port)", "-U", "alice:\(Self.password)",
            "--noproxy", "127.0.0.1", server.url("/get").absoluteString,
        ])
        #expect(direct.status == 0, "\(direct.stderrText)")
        #expect(proxy.records.map(\.host) == ["api.test"], "only the host not on --noproxy went through the proxy")
        #expect(server.requestCount == 2)
        try await server.shutdown()
        try await proxy.shutdown()
    }

    /// curl percent-decodes `-U`'s halves on every libcurl, and so does courier: `%40` and `%25`
    /// reach the proxy as `@` and `%`, and the password keeps its colons.
    @Test func dashUIsPercentDecodedAsCurlDecodesIt() async throws {
        let proxy = try await TestProxy.start(.http, login: ProxyLogin(user: "al@ice", password: "p@ss:w/rd%41"), hosts: ["api.test": "127.0.0.1"])
        let server = try await TestServer.start()
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-x", "127.0.0.1:\(proxy.port)", "-U", "al%40ice:p%40ss:w/rd%2541",
            "http://api.test:\(server.port)/get",
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(proxy.records.map(\.user) == ["al@ice"])
        #expect(proxy.records.map(\.accepted) == [true])
        try await server.shutdown()
        try await proxy.shutdown()
    }

    @Test func aRefusedProxyLoginFailsWithoutPrintingThePassword() async throws {
        let proxy = try await TestProxy.start(.http, login: ProxyLogin(user: "alice", password: "right"))
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-x", "127.0.0.1:\(proxy.port)", "-U", "alice:\(Self.password)", "https://localhost:1/",
        ])
        #expect(result.status == 56, "\(result.stderrText)")
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.contains("the proxy requires authentication (CONNECT answered 407)"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("hunter2"))
        try await proxy.shutdown()
    }

    @Test func unixSocketResolveAndConnectToReachTheServer() async throws {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("courier-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let socketServer = try await TestServer.start(unixDomainSocketPath: path)
        let server = try await TestServer.start()
        let overSocket = try await CourierToolProcess.run(["request", "--transport", "curl", "--unix-socket", path, "http://api.test/get?socket"])
        #expect(overSocket.status == 0, "\(overSocket.stderrText)")
        #expect(socketServer.lastRequest?.query == "socket")
        let resolved = try await CourierToolProcess.run([
            "request", "--transport", "curl", "--resolve", "api.test:\(server.port):127.0.0.1", "http://api.test:\(server.port)/get?resolve",
        ])
        #expect(resolved.status == 0, "\(resolved.stderrText)")
        let connected = try await CourierToolProcess.run([
            "request", "--transport", "curl", "--connect-to", "api.test:80:127.0.0.1:\(server.port)", "http://api.test/get?connect",
        ])
        #expect(connected.status == 0, "\(connected.stderrText)")
        #expect(server.requestCount == 2)
        try await socketServer.shutdown()
        try await server.shutdown()
    }

    @Test func dohURLResolvesTheHostThroughTheDoHServer() async throws {
        try await withDoHServer(names: ["service.test": "127.0.0.1"]) { doh, files in
            let server = try await TestServer.start()
            let resolved = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--doh-url", doh.url.absoluteString, "--cacert", files.caBundlePath,
                "http://service.test:\(server.port)/get?doh",
            ])
            let unknown = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--doh-url", doh.url.absoluteString, "--cacert", files.caBundlePath,
                "http://unknown.test:\(server.port)/get",
            ])
            #expect(server.requestCount == 1)
            try await server.shutdown()
            #expect(resolved.status == 0, "\(resolved.stderrText)")
            #expect(resolved.stdoutText.contains("\"path\":\"/get\""), "\(resolved.stdoutText)")
            #expect(unknown.status == 6, "\(unknown.stderrText)")
            #expect(unknown.stderrLines.count == 1)
            #expect(unknown.stderrText.contains("unknown.test did not resolve through DNS over HTTPS at \(doh.url.absoluteString)"), "\(unknown.stderrText)")
            #expect(doh.answeredQueries.contains("A service.test NOERROR"), "\(doh.answeredQueries)")
            #expect(doh.answeredQueries.contains("A unknown.test NXDOMAIN"), "\(doh.answeredQueries)")
        }
    }

    @Test(arguments: [
        (["-x", "http://alice:hunter2@127.0.0.1:3128"], "use a proxy (-x/--proxy)"),
        (["--unix-socket", "/tmp/courier-none.sock"], "send over a Unix domain socket (--unix-socket)"),
        (["--resolve", "api.test:80:127.0.0.1"], "override DNS (--resolve)"),
        (["--connect-to", "api.test:80:127.0.0.1:80"], "override DNS (--connect-to)"),
        (["--doh-url", "https://127.0.0.1:8443/dns-query"], "resolve host names through DNS over HTTPS (--doh-url)"),
    ])
    func urlsessionRefusesEachFlagBeforeSendingAnything(flags: [String], option: String) async throws {
        let server = try await TestServer.start()
        let result = try await CourierToolProcess.run(["request", "--transport", "urlsession"] + flags + [server.url("/get").absoluteString])
        #expect(result.status == 4)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.contains("URLSessionTransport cannot \(option); nothing was sent (CurlTransport can)"), "\(result.stderrText)")
        #expect(!result.stderrText.contains("hunter2"))
        #expect(server.acceptedConnectionCount == 0)
        try await server.shutdown()
    }

    @Test(arguments: [
        (["-x", "ftp://alice:hunter2@proxy.test"], "-x/--proxy: ftp://alice:xxxxx@proxy.test has a scheme libcurl cannot use"),
        (["-U", "alice:hunter2"], "-U/--proxy-user needs -x/--proxy"),
        (["--noproxy", "localhost"], "--noproxy needs -x/--proxy"),
        (["--resolve", "api.test:80"], "--resolve \"api.test:80\" is not accepted: expected host:port:address[,address…]"),
        (["--connect-to", "a:b:c:d"], "is not accepted: expected a port number, or nothing"),
        (["--doh-url", "http://alice:hunter2@127.0.0.1:8053/dns-query"], "--doh-url: http://alice:xxxxx@127.0.0.1:8053/dns-query is not an https URL"),
    ])
    func aMalformedFlagIsAUsageError(flags: [String], message: String) async throws {
        let result = try await CourierToolProcess.run(["request", "--transport", "curl"] + flags + ["http://127.0.0.1:9/"])
        #expect(result.status == 64)
        #expect(result.stderrText.contains(message), "\(result.stderrText)")
        #expect(!result.stderrText.contains("hunter2"))
    }
}
