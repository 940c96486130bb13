#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierOpenAPI
import CourierTestServer
import Foundation
import OpenAPIRuntime
import Testing

extension TransportKind: CustomTestStringConvertible {
    public var testDescription: String { rawValue }

    /// The transports this run tests: the one `COURIER_TRANSPORT` names, as the shared transport
    /// suite reads it, or both when it is unset.
    static var configured: [TransportKind] {
        guard let value = ProcessInfo.processInfo.environment[environmentVariable], !value.isEmpty else {
            return allCases
        }
        return (try? TransportKind(name: value)).map { [$0] } ?? []
    }

    /// The engine's streaming entry point with its policies, one transport per kind for the
    /// whole process.
    var streaming: StreamingNetworking {
        get throws {
            switch self {
            case .urlSession: Self.sharedURLSession.streaming
            case .curl: try Self.sharedCurl.get().streaming
            }
        }
    }

    /// Whether an upload of unknown length goes out chunked as it is produced. URLSession's
    /// engine writes it to a temporary file first and sends that with its `Content-Length`,
    /// since FoundationNetworking ends a body stream at the first read that finds nothing.
    var sendsUploadsAsProduced: Bool { self == .curl }

    /// The generated client over this transport, talking to `server`.
    func client(for server: TestServer, middlewares: [any ClientMiddleware] = []) throws -> Client {
        Client(serverURL: server.baseURL, transport: CourierClientTransport(try streaming), middlewares: middlewares)
    }

    private static let sharedURLSession = URLSessionTransport()
    private static let sharedCurl = Result { () throws(CurlError) in try CurlTransport() }
}

/// Runs `body` against a test server of its own on 127.0.0.1, stopped afterwards.
func withTestServer(_ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start()
    do {
        try await body(server)
    } catch {
        try? await server.shutdown()
        throw error
    }
    try await server.shutdown()
}
