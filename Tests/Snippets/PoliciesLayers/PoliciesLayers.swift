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

/// Records each whole transfer: a streamed body's bytes and duration once it has ended.
final class TransferLog: HTTPExchangeLayer {
    struct Entry: Sendable { var url: URL?; var bytes: Int; var duration: Duration; var failed: Bool }
    private let entries = Mutex<[Entry]>([])

    var transfers: [Entry] { entries.withLock { $0 } }

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        let start = ContinuousClock.now
        let (body, head) = try await next(request)
        if let streamed = body as? ResponseBody {   // still arriving: told once it ends
            streamed.whenEnded { ending in
                let entry = Entry(url: head.url, bytes: ending.bytes, duration: ending.instant - start, failed: ending.error != nil)
                self.entries.withLock { $0.append(entry) }
            }
        } else if let data = body as? Data {        // a buffered call: already whole
            entries.withLock { $0.append(Entry(url: head.url, bytes: data.count, duration: .now - start, failed: false)) }
        }
        return (body, head)
    }
}

func layeredTransport(counting counter: HopCounter) -> URLSessionTransport {
    var policies = Policies()
    policies.retries = .standard
    policies.callLayers = [TenantHeader(tenant: "acme")]   // once per call, outside every policy
    policies.hopLayers = [counter]                         // once per attempt and per redirect
    return URLSessionTransport(configuration: .init(policies: policies))
}
