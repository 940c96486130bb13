#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization

/// Adds the tenant's id to every request: once per call is enough.
struct TenantHeader: HTTPExchangeLayer {
    let tenant: String

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        var request = request
        request.setValue(tenant, forHTTPHeaderField: "X-Tenant")
        return try await next(request)
    }
}

/// Counts what reaches the wire: every attempt and every redirect.
final class HopCounter: HTTPExchangeLayer {
    private let count = Mutex(0)

    var hops: Int { count.withLock { $0 } }

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        count.withLock { $0 += 1 }
        return try await next(request)
    }
}

func layeredTransport(counting counter: HopCounter) -> URLSessionTransport {
    var policies = Policies()
    policies.retries = .standard
    policies.callLayers = [TenantHeader(tenant: "acme")]   // once per call, outside every policy
    policies.hopLayers = [counter]                         // once per attempt and per redirect
    return URLSessionTransport(configuration: .init(policies: policies))
}
