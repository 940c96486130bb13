#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierOpenAPI
import CourierTestServer
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

/// Binary responses read chunk by chunk through the generated client.
@Suite struct HTTPBodyResponseBodyTests {
    @Test(arguments: TransportKind.configured)
    func aLargeDownloadIsReadChunkByChunkWithItsContentLength(transport: TransportKind) async throws {
        try await withTestServer { server in
            let count = 8 << 20
            let body = try await transport.client(for: server)
                .getBytes(path: .init(count: count), query: .init(seed: 7)).ok.body.binary
            #expect(body.length == .known(Int64(count)))
            #expect(body.iterationBehavior == .single)
            let (received, chunks) = try await compare(body, with: TestServer.deterministicBytes(count: count, seed: 7))
            #expect(received == count)
            #expect(chunks > 1, "a streaming engine hands over the body as it arrives")
            // The body read the network once; a second reader is refused rather than served nothing.
            await #expect(throws: (any Error).self) {
                for try await _ in body {}
            }
        }
    }

    @Test(arguments: TransportKind.configured)
    func aChunkedDownloadHasNoLength(transport: TransportKind) async throws {
        try await withTestServer { server in
            let count = 1 << 20
            let body = try await transport.client(for: server)
                .streamBytes(path: .init(count: count), query: .init(chunkSize: 1000)).ok.body.binary
            #expect(body.length == .unknown)
            #expect(try await compare(body, with: TestServer.deterministicBytes(count: count)).bytes == count)
        }
    }

    /// Checks each chunk against the bytes expected at its offset, without keeping the chunks,
    /// and returns how many bytes arrived in how many chunks.
    private func compare(_ body: HTTPBody, with expected: Data) async throws -> (bytes: Int, chunks: Int) {
        var offset = 0
        var chunks = 0
        for try await chunk in body {
            chunks += 1
            guard offset + chunk.count <= expected.count else {
                Issue.record("\(offset + chunk.count) bytes, more than the \(expected.count) expected")
                return (offset + chunk.count, chunks)
            }
            let slice = expected[expected.startIndex + offset ..< expected.startIndex + offset + chunk.count]
            // Compared as Data (memcmp): an element-wise loop over 8 MiB in a debug build holds a
            // thread that runs Swift tasks for most of a second.
            guard Data(chunk) == slice else {
                Issue.record("the chunk at offset \(offset) differs")
                return (offset, chunks)
            }
            offset += chunk.count
        }
        return (offset, chunks)
    }
}
