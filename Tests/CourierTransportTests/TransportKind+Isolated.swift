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
    func withIsolatedTransport<T>(
        policies: Policies = .init(),
        curl: CurlTransport.Configuration = .init(),
        urlSession: URLSessionTransport.Configuration = .init(),
        _ body: (@escaping Networking) async throws -> T
    ) async throws -> T {
        var curl = curl
        curl.policies = policies
        var urlSession = urlSession
        urlSession.policies = policies
        switch self {
        case .urlSession:
            let transport = URLSessionTransport(configuration: urlSession)
            let result = await Result(catching: { try await body(transport.networking) })
            await transport.shutdown()
            return try result.get()
        case .curl:
            let transport = try CurlTransport(configuration: curl)
            let result = await Result(catching: { try await body(transport.networking) })
            await transport.shutdown()
            return try result.get()
        }
    }

    /// ``withIsolatedTransport(policies:curl:urlSession:_:)`` for a ``StreamingNetworking``: the
    /// transport's `streaming`, as ``streaming`` gives the shared one.
    func withIsolatedStreamingTransport<T>(
        policies: Policies = .init(),
        maximumConnectionsPerHost: Int = 6,
        curl: CurlTransport.Configuration = .init(),
        _ body: (@escaping StreamingNetworking) async throws -> T
    ) async throws -> T {
        switch self {
        case .urlSession:
            var configuration = URLSessionTransport.Configuration(maximumConnectionsPerHost: maximumConnectionsPerHost)
            configuration.policies = policies
            let transport = URLSessionTransport(configuration: configuration)
            let result = await Result(catching: { try await body(transport.streaming) })
            await transport.shutdown()
            return try result.get()
        case .curl:
            var configuration = curl
            configuration.policies = policies
            configuration.maximumConnectionsPerHost = maximumConnectionsPerHost
            let transport = try CurlTransport(configuration: configuration)
            let result = await Result(catching: { try await body(transport.streaming) })
            await transport.shutdown()
            return try result.get()
        }
    }
}
