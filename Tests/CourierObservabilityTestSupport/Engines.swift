#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Synchronization
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
        try await withTransport(policies: policies) { server, transport in try await body(server, transport.exchange) }
    }

    /// Runs `body` with a fresh server and this engine's transport with `policies` (a layer
    /// under test goes in their ``Policies/callLayers``, over buffered and streamed calls alike),
    /// and stops both afterwards.
    @discardableResult
    package func withTransport<T: Sendable>(
        policies: Policies = Policies(), _ body: (TestServer, any HTTPTransport) async throws -> T
    ) async throws -> T {
        let server = try await TestServer.start()
        let transport: any HTTPTransport
        switch self {
        case .urlSession:
            transport = URLSessionTransport(configuration: URLSessionTransport.Configuration(policies: policies))
        case .curl:
            var configuration = CurlTransport.Configuration()
            configuration.policies = policies
            transport = try CurlTransport(configuration: configuration)
        }
        do {
            let result = try await body(server, transport)
            await transport.shutdown()
            try await server.shutdown()
            return result
        } catch {
            await transport.shutdown()
            try? await server.shutdown()
            throw error
        }
    }

    /// `policies` with `layer` as their one call layer.
    package static func policies(with layer: any HTTPExchangeLayer) -> Policies {
        var policies = Policies()
        policies.callLayers = [layer]
        return policies
    }
}

/// Waits until `condition` holds: for what a layer does when a body ends, which may come just
/// after the reader saw the end. Only a condition that never holds waits out the 120 s.
package func waitFor(_ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition(), ContinuousClock.now < deadline {
        try? await Task.sleep(for: .milliseconds(5))
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

/// An exchange that fails after it started: the server sends the head and part of the body,
/// then nothing, and the request's idle timeout ends it. Both engines carry what they measured on
/// the `URLError(.timedOut)`.
package enum StalledExchange {
    package static func request(on server: TestServer) -> URLRequest {
        var request = URLRequest(url: server.url("/stall/1000"))
        request.timeoutInterval = 1
        return request
    }

    /// `exchange`, holding a failure for a second before passing it on, so that a layer above
    /// that timed the call itself would count far more than what the engine measured; the
    /// failure is kept in `caught` for the test to compare with.
    package static func failingLate(_ exchange: @escaping HTTPExchange, keepingIn caught: Caught) -> HTTPExchange {
        { request in
            do {
                return try await exchange(request)
            } catch {
                caught.keep(error)
                try? await Task.sleep(for: .seconds(1))
                throw error
            }
        }
    }

    /// The failure an exchange threw, and what the engine measured of it.
    package final class Caught: Sendable {
        private let error = Mutex<(any Error)?>(nil)

        package init() {}

        func keep(_ error: any Error) {
            self.error.withLock { $0 = error }
        }

        /// The engine's measures of the failure, which the layer must have read.
        package var metrics: ExchangeMetrics {
            get throws {
                let metrics = error.withLock { ($0 as? URLError)?.exchangeMetrics }
                return try #require(metrics, "the failure carries what the engine measured")
            }
        }
    }
}
