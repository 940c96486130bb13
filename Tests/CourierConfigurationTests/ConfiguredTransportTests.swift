#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import CourierTestServer
import Foundation
import Testing

@Suite struct ConfiguredTransportTests {
    /// The settings reach the engine the key names: with following turned off by configuration,
    /// each transport hands back the 302 itself. Only a loopback server is asked.
    @Test(arguments: TransportKind.allCases)
    func theConfiguredTransportObeysTheConfiguredPolicies(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        do {
            let config = ConfigReader(provider: InMemoryProvider(values: [
                "courier.transport": .init(.string(transport.rawValue), isSecret: false),
                "courier.redirects.maximum": 0,
                // Long: FoundationNetworking runs every URLSession of the process on one queue,
                // so a URLSession task here can start seconds late while other suites run.
                "courier.timeouts.total": 60,
            ]))
            let networking = try TransportKind.makeTransport(config: config.scoped(to: "courier")).networking
            let (_, response) = try await networking(URLRequest(url: server.url("/redirect/1")))
            #expect((response as? HTTPURLResponse)?.statusCode == 302)
            #expect(server.requestCount == 1)
        } catch {
            try await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func noKeysAtAllBuildTheDefaultTransport() throws {
        _ = try TransportKind.makeTransport(config: ConfigReader(provider: InMemoryProvider(values: [:])))
    }
}
