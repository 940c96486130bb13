#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// The `User-Agent` a request that sets none goes out with: the same on every transport, naming
/// Courier and its version.
@Suite(.testServer) struct TransportUserAgentTests {
    @Test(arguments: TransportKind.configured)
    func aRequestWithoutOneSendsCouriersDefault(_ transport: TransportKind) async throws {
        let (data, _) = try await transport.send("GET", "/get", on: try sharedServer())
        #expect(try echo(data).headerValues("User-Agent") == [DefaultUserAgent.value])
        #expect(DefaultUserAgent.value.hasSuffix(" Courier/\(courierVersion)"))
    }

    @Test(arguments: TransportKind.configured)
    func aRequestsOwnIsSentAsItIs(_ transport: TransportKind) async throws {
        let (data, _) = try await transport.send("GET", "/get", on: try sharedServer(), headers: ["User-Agent": "Mine/2"])
        #expect(try echo(data).headerValues("User-Agent") == ["Mine/2"])
    }
}
