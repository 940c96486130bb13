#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// Checks that need a process of their own (see ``ChildProcess``): each starts this test binary
/// filtered to one ``ChildProcessEntryPoints`` test and asserts on its outcome.
@Suite struct TransportProcessIsolationTests {
    @Test(arguments: TransportKind.configured)
    func proxyVariablesInTheEnvironment(_ transport: TransportKind) async throws {
        // The variables go into the child's environment at exec, never through setenv here:
        // other tests run in parallel in this process and would race getenv or be proxied.
        let trap = try await TestServer.start()
        let proxy = trap.baseURL.absoluteString
        let outcome = try await ChildProcess.run(
            "proxyVariables", transport: transport,
            environment: ["http_proxy": proxy, "https_proxy": proxy, "HTTPS_PROXY": proxy, "ALL_PROXY": proxy, "all_proxy": proxy,
                          "no_proxy": "", "NO_PROXY": ""]
        )
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
        let trapped = transport.obeysProxyEnvironment ? 1 : 0
        #expect(trap.acceptedConnectionCount == trapped)
        #expect(trap.requestCount == trapped)
        // Control: the trap does catch a client that uses it as its proxy, so its silence
        // above means something. Port 9 is closed: only the proxy can answer.
        var proxied = CurlTransport.Configuration()
        proxied.proxy = .url(proxy)
        let (_, response) = try await TransportKind.curl.withIsolatedTransport(curl: proxied) { networking in
            try await networking(URLRequest(url: URL(string: "http://127.0.0.1:9/get")!))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(trap.requestCount == trapped + 1)
        try await trap.shutdown()
    }

    /// `.environment` is the one proxy setting that reads the variables; the test above shows
    /// the default ignores them.
    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func aCurlTransportAskingForTheEnvironmentsProxyUsesIt() async throws {
        let trap = try await TestServer.start()
        let outcome = try await ChildProcess.run(
            "proxyFromEnvironment", transport: .curl,
            environment: ["http_proxy": trap.baseURL.absoluteString, "no_proxy": "", "NO_PROXY": ""]
        )
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
        #expect(trap.requestCount == 1)
        try await trap.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func cancellingFiveHundredRequestsReturnsToTheDescriptorBaseline(_ transport: TransportKind) async throws {
        let outcome = try await ChildProcess.run("cancelledRequestsReleaseDescriptors", transport: transport)
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
    }
}
