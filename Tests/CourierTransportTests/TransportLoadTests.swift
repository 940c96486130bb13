#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// Many requests at once: everything succeeds, and connections are pooled as configured.
/// Each test has a server and a transport of its own, so the connection counts are its alone.
/// Serialized: each saturates both cores of the CI machine, and together they starved other
/// suites' timing bounds.
@Suite(.serialized) struct TransportLoadTests {
    /// Sends `count` GETs of `path`, at most `inFlight` at a time, and returns how many got 200.
    private static func send(
        _ count: Int, inFlight: Int, path: String, on server: TestServer, with networking: @escaping Networking
    ) async throws -> Int {
        try await withThrowingTaskGroup(of: Int.self) { group in
            var succeeded = 0
            var started = 0
            func addNext() {
                let index = started
                started += 1
                group.addTask {
                    let (_, response) = try await networking(URLRequest(url: server.url("\(path)?i=\(index)")))
                    return (response as? HTTPURLResponse)?.statusCode == 200 ? 1 : 0
                }
            }
            while started < min(inFlight, count) { addNext() }
            for try await result in group {
                succeeded += result
                if started < count { addNext() }
            }
            return succeeded
        }
    }

    @Test(arguments: TransportKind.configured)
    func manyRequestsStayWithinThePerHostConnectionLimit(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        let count = 2_000
        let succeeded = try await transport.withIsolatedTransport { networking in
            try await Self.send(count, inFlight: 64, path: "/get", on: server, with: networking)
        }
        #expect(succeeded == count)
        #expect(server.requestCount == count)
        // Both transports default to 6 connections per host (URLSession's
        // httpMaximumConnectionsPerHost, CurlTransport's maximumConnectionsPerHost).
        let bound = transport.maximumConnectionsUnderLoad(perHostLimit: 6) ?? count
        #expect(server.acceptedConnectionCount <= bound, "\(server.acceptedConnectionCount) connections")
        #expect(server.acceptedConnectionCount >= 1)
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func connectionCloseOnEveryResponseCostsOneConnectionPerRequest(_ transport: TransportKind) async throws {
        let server = try await TestServer.start(closeEveryConnection: true)
        let count = 1_000
        let succeeded = try await transport.withIsolatedTransport { networking in
            try await Self.send(count, inFlight: 16, path: "/get", on: server, with: networking)
        }
        #expect(succeeded == count)
        #expect(server.requestCount == count)
        #expect(server.acceptedConnectionCount == count)
        try await server.shutdown()
    }
}
