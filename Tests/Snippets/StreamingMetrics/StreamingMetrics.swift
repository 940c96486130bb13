#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

func timeDownload(of url: URL, over transport: some HTTPTransport) async throws -> (firstByte: Duration?, total: Duration?) {
    let (body, head) = try await transport.stream(for: URLRequest(url: url))
    for try await _ in body {}
    return (head.metrics.firstByte, body.metrics?.total)
}
