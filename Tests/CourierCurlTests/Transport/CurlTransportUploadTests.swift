#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import Foundation
import Testing
@testable import CourierCurl

/// Request bodies of every size class against libcurl's buffers, which are sized per transfer
/// (``CurlBufferSizes``): smaller than the smallest upload buffer, around libcurl's 64 KiB
/// upload buffer and the size below which it sends a body inside the request's first `send`,
/// and many times larger than either.
@Suite("CurlTransport request bodies")
struct CurlTransportUploadTests {
    static let sizes = [1, 100, (16 << 10) - 1, (16 << 10) + 1, (64 << 10) - 1, 64 << 10, (64 << 10) + 1, 300_001, 1_200_000]

    @Test(arguments: sizes)
    func aDataBodyArrivesWholeWithItsLength(count: Int) async throws {
        try await withCurlTransport { server, transport in
            let body = DeterministicBytes.data(count: count, seed: UInt64(count))
            var post = request(server.url("/status/200"), method: "POST")
            post.httpBody = body
            let (_, response) = try await transport.http(post)
            #expect(response.statusCode == 200)
            let received = try #require(server.lastRequest)
            #expect(received.body == body)
            #expect(received.value(for: "Content-Length") == String(count))
            #expect(received.value(for: "Transfer-Encoding") == nil)
        }
    }

    /// A streamed upload, with and without a length, many times the upload buffer and in
    /// pieces that do not line up with it.
    @Test(arguments: [Int64?.none, 700_000])
    func aStreamedUploadLargerThanTheBufferArrivesWhole(length: Int64?) async throws {
        try await withCurlTransport { server, transport in
            let body = DeterministicBytes.data(count: 700_000, seed: 7)
            let pieces = stride(from: 0, to: body.count, by: 70_001).map { body[$0..<min($0 + 70_001, body.count)] }
            let chunks = AsyncStream<Data> { continuation in
                for piece in pieces { continuation.yield(Data(piece)) }
                continuation.finish()
            }
            let put = request(server.url("/status/200"), method: "PUT")
            let (responseBody, head) = try await transport.stream(for: put, uploading: .stream(chunks, length: length))
            _ = try await responseBody.collect(upTo: 1 << 20)
            #expect(head.statusCode == 200)
            let received = try #require(server.lastRequest)
            #expect(received.body == body)
            #expect(received.value(for: "Content-Length") == length.map(String.init))
        }
    }

    /// One handle runs transfers that want different buffers, one after another: a streamed
    /// download (a large receive buffer), small and large bodies, a plain GET. Each must run
    /// whole with what the one before left on the handle.
    @Test func transfersWithDifferentBufferSizesShareOneHandle() async throws {
        try await withCurlTransport { server, transport in
            let large = DeterministicBytes.data(count: 500_000, seed: 3)
            for round in 0..<2 {
                let (stream, _) = try await transport.stream(for: request(server.url("/bytes/600000?seed=\(round)")))
                let streamed = try await stream.collect(upTo: 1 << 20)
                #expect(streamed == DeterministicBytes.data(count: 600_000, seed: UInt64(round)), "round \(round)")

                var small = request(server.url("/status/200"), method: "POST")
                small.httpBody = Data("a=1".utf8)
                _ = try await transport.http(small)
                #expect(server.lastRequest?.body == Data("a=1".utf8), "round \(round)")

                var big = request(server.url("/status/200"), method: "PUT")
                big.httpBody = large
                _ = try await transport.http(big)
                #expect(server.lastRequest?.body == large, "round \(round)")

                let (data, _) = try await transport.http(request(server.url("/bytes/200000?seed=9")))
                #expect(data == DeterministicBytes.data(count: 200_000, seed: 9), "round \(round)")
                #expect(server.lastRequest?.body.isEmpty == true, "round \(round)")
            }
            #expect(transport.statistics.liveHandles == 1)
        }
    }
}
