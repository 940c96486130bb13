#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

extension TransportKind {
    /// Runs `body` with a transport of this kind, with the given settings, that no other test
    /// shares: for tests whose assertions (connection counts, descriptors) other tests' traffic
    /// would disturb. The transport is shut down (curl) or invalidated with its tasks cancelled
    /// (URLSession) afterwards, so a test that leaves requests hanging on purpose leaves nothing
    /// behind.
    /// `policies` replace the configurations' own, so a test states a policy once for both.
    func withIsolatedHTTPTransport<T>(
        policies: Policies = .init(),
        curl: CurlTransport.Configuration = .init(),
        urlSession: URLSessionTransport.Configuration = .init(),
        _ body: (any HTTPTransport) async throws -> T
    ) async throws -> T {
        var curl = curl
        curl.policies = policies
        var urlSession = urlSession
        urlSession.policies = policies
        let transport: any HTTPTransport = switch self {
        case .urlSession: URLSessionTransport(configuration: urlSession)
        case .curl: try CurlTransport(configuration: curl)
        }
        let result = await Result(catching: { try await body(transport) })
        await transport.shutdown()
        return try result.get()
    }

    /// ``withIsolatedHTTPTransport(policies:curl:urlSession:_:)`` for the transport's
    /// `networking`.
    func withIsolatedTransport<T>(
        policies: Policies = .init(),
        curl: CurlTransport.Configuration = .init(),
        urlSession: URLSessionTransport.Configuration = .init(),
        _ body: (@escaping Networking) async throws -> T
    ) async throws -> T {
        try await withIsolatedHTTPTransport(policies: policies, curl: curl, urlSession: urlSession) { try await body($0.networking) }
    }

    /// ``withIsolatedHTTPTransport(policies:curl:urlSession:_:)`` for a ``StreamingNetworking``:
    /// the transport's `streaming`, as ``streaming`` gives the shared one.
    func withIsolatedStreamingTransport<T>(
        policies: Policies = .init(),
        maximumConnectionsPerHost: Int = 6,
        curl: CurlTransport.Configuration = .init(),
        _ body: (@escaping StreamingNetworking) async throws -> T
    ) async throws -> T {
        var curl = curl
        curl.maximumConnectionsPerHost = maximumConnectionsPerHost
        let urlSession = URLSessionTransport.Configuration(maximumConnectionsPerHost: maximumConnectionsPerHost)
        return try await withIsolatedHTTPTransport(policies: policies, curl: curl, urlSession: urlSession) { try await body($0.streaming) }
    }
}
