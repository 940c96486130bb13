#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

func timeDownload(of url: URL, over streaming: StreamingNetworking) async throws -> (firstByte: Duration?, total: Duration?) {
    let (body, head) = try await streaming(URLRequest(url: url), nil)
    for try await _ in body {}
    return (head.metrics.firstByte, body.metrics?.total)
}
