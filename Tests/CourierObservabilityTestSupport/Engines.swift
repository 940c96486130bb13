#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// The engines whose `exchange` the observability layers are tested over, shared by their three
/// test modules: each is a real transport talking to a
/// `TestServer` on 127.0.0.1.
package enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession
    case curl

    package var testDescription: String { rawValue }

    /// Runs `body` with a fresh server and this engine's exchange with `policies`, and stops both
    /// afterwards.
    @discardableResult
    package func withExchange<T: Sendable>(
        policies: Policies = Policies(), _ body: (TestServer, @escaping HTTPExchange) async throws -> T
    ) async throws -> T {
        let server = try await TestServer.start()
        let shutdown: @Sendable () async -> Void
        let exchange: HTTPExchange
        switch self {
        case .urlSession:
            let transport = URLSessionTransport(configuration: URLSessionTransport.Configuration(policies: policies))
            exchange = transport.exchange
            shutdown = { await transport.shutdown() }
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.policies = policies
            let transport = try CurlTransport(configuration: configuration)
            exchange = transport.exchange
            shutdown = { await transport.shutdown() }
        }
        do {
            let result = try await body(server, exchange)
            await shutdown()
            try await server.shutdown()
            return result
        } catch {
            await shutdown()
            try? await server.shutdown()
            throw error
        }
    }
}

/// What a test puts in a URL so as to prove it never comes out: a password and query secrets.
package enum Secrets {
    package static let password = "pw-7f3a9c"
    package static let token = "tok-51be02"
    package static let apiKey = "key-c0ffee"
    package static let signature = "sig-9d8e7f"
    package static let all = [password, token, apiKey, signature]

    /// `path` on `server` as `alice` with ``password``, with the secrets and a harmless `page=2`
    /// in the query.
    package static func url(_ path: String, on server: TestServer) throws -> URL {
        let text = "http://alice:\(password)@127.0.0.1:\(server.port)\(path)?page=2&access_token=\(token)&api_key=\(apiKey)&X-Amz-Signature=\(signature)"
        return try #require(URL(string: text))
    }

    /// The same path and query on a port that refuses connections.
    package static func url(_ path: String, port: Int) throws -> URL {
        let text = "http://alice:\(password)@127.0.0.1:\(port)\(path)?page=2&access_token=\(token)&api_key=\(apiKey)&X-Amz-Signature=\(signature)"
        return try #require(URL(string: text))
    }
}
