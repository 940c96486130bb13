#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The stored answer however stale while offline, without a trip to the server; online, the
/// cache's rules decide.
func profile(at url: URL, offline: Bool, over transport: some HTTPTransport) async throws -> Data? {
    var request = URLRequest(url: url)
    if offline { request.cachePolicy = .returnCacheDataDontLoad }
    let (body, head) = try await transport.stream(for: request)
    let data = try await body.collect(upTo: 1 << 20)
    return head.statusCode == 504 ? nil : data           // 504: nothing stored, nothing sent
}
