#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

func sendLines(_ lines: [String], to url: URL, over transport: some HTTPTransport) async throws -> Int {
    let pieces = AsyncStream<Data> { continuation in
        for line in lines { continuation.yield(Data((line + "\n").utf8)) }
        continuation.finish()
    }
    var request = URLRequest(url: url)
    request.httpMethod = "POST"
    let (body, head) = try await transport.stream(for: request, uploading: .stream(pieces))
    _ = try await body.collect(upTo: 1 << 20)
    return head.statusCode
}
