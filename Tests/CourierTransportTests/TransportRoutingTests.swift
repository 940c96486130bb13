#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// Where a request goes, on each engine: an `http+unix` URL is sent over its socket by
/// CurlTransport and refused by URLSessionTransport before anything is sent, never sent
/// elsewhere; each says so in its `capabilities`.
@Suite struct TransportRoutingTests {
    /// A server on a socket in a directory of its own (short: sun_path holds 108 bytes).
    private func withSocketServer<T>(_ body: (TestServer, URL) async throws -> T) async throws -> T {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("courier-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("s.sock").path
        let server = try await TestServer.start(unixDomainSocketPath: path)
        let url = try #require(URL.unixSocket(path, path: "/get"))
        do {
            let result = try await body(server, url)
            try await server.shutdown()
            return result
        } catch {
            try await server.shutdown()
            throw error
        }
    }

    @Test(.enabled(if: TransportKind.configured.contains(.urlSession)))
    func urlSessionRefusesAUnixSocketURLBeforeSendingAnything() async throws {
        try await withSocketServer { server, url in
            let networking = TransportKind.urlSession.networking
            let error = await #expect(throws: RequestError.self) { _ = try await networking(URLRequest(url: url)) }
            #expect(error == .unsupportedOption(
                "send over a Unix domain socket (http+unix URL)", transport: "URLSessionTransport", supportedBy: "CurlTransport"
            ))
            #expect(error?.description == "URLSessionTransport cannot send over a Unix domain socket (http+unix URL); nothing was sent (CurlTransport can)")
            // Through the streaming engine too.
            await #expect(throws: RequestError.self) { _ = try await TransportKind.urlSession.streaming(URLRequest(url: url), nil) }
            #expect(server.acceptedConnectionCount == 0)
        }
    }

    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func curlSendsAUnixSocketURLOverItsSocket() async throws {
        try await withSocketServer { server, url in
            let (data, response) = try await TransportKind.curl.networking(URLRequest(url: url))
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(try JSONDecoder().decode(Echo.self, from: data).path == "/get")
            #expect(server.requestCount == 1)
        }
    }

    @Test(arguments: TransportKind.configured)
    func capabilitiesSayWhichEngineRoutes(_ transport: TransportKind) async throws {
        let engine = try transport.makeTransport()
        let capabilities = engine.capabilities
        await engine.shutdown()
        let routes = transport == .curl
        #expect(capabilities.connectsThroughProxies == routes)
        #expect(capabilities.connectsOverUnixSockets == routes)
        #expect(capabilities.overridesDNS == routes)
    }
}
