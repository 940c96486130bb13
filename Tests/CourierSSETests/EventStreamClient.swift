#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation

/// Runs `body` with a client over a new transport of `kind` and a test server on 127.0.0.1,
/// and shuts both down afterwards.
func withEventStreamClient(_ kind: TransportKind, _ body: (APIClient, TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start()
    let transport = try kind.makeTransport()
    let client = APIClient(baseURL: server.url("/"), transport: transport)
    do {
        try await body(client, server)
    } catch {
        await transport.shutdown()
        try? await server.shutdown()
        throw error
    }
    await transport.shutdown()
    try await server.shutdown()
}
