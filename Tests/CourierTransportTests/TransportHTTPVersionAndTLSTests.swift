import Courier
import CourierCurl
import Testing

/// Which engine says it chooses the HTTP version and takes a TLS identity: the curl engine's
/// own tests exercise both; URLSession refuses them (see URLSessionRefusalTests).
@Suite struct TransportHTTPVersionAndTLSTests {
    @Test(arguments: TransportKind.configured)
    func capabilitiesSayWhichEngineHasThem(_ transport: TransportKind) async throws {
        let engine = try transport.makeTransport()
        let capabilities = engine.capabilities
        await engine.shutdown()
        #expect(capabilities.choosesHTTPVersion == (transport == .curl))
        #expect(capabilities.configuresTLSIdentity == (transport == .curl))
    }
}
