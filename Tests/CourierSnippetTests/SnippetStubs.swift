#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Synchronization

/// A `Networking` double that answers every request with `body` (by the request's URL when
/// `bodies` names it) and records the requests, so that snippets written for a real API run
/// without any network.
final class StubNetworking: Sendable {
    private let bodies: [String: String]
    private let fallback: String
    private let received = Mutex<[URLRequest]>([])

    init(body: String, bodies: [String: String] = [:]) {
        fallback = body
        self.bodies = bodies
    }

    var requests: [URLRequest] { received.withLock { $0 } }

    var networking: Networking {
        { [self] request in
            received.withLock { $0.append(request) }
            guard let url = request.url,
                  let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: nil)
            else { throw URLError(.badURL) }
            return (Data((bodies[url.absoluteString] ?? fallback).utf8), response)
        }
    }
}

/// Runs `body` with a test server on 127.0.0.1 and shuts the server down afterwards.
func withTestServer<T: Sendable>(_ body: (TestServer) async throws -> T) async throws -> T {
    let server = try await TestServer.start()
    do {
        let result = try await body(server)
        try await server.shutdown()
        return result
    } catch {
        try? await server.shutdown()
        throw error
    }
}
