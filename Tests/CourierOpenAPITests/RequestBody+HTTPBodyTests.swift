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

/// Request bodies produced by an AsyncSequence and sent through the generated client.
@Suite struct RequestBodyHTTPBodyTests {
    @Test(arguments: TransportKind.configured, [false, true])
    func aStreamedUploadArrivesWhole(transport: TransportKind, declaresLength: Bool) async throws {
        try await withTestServer { server in
            let chunkSize = 16 << 10
            let chunkCount = 64
            let bytes = TestServer.deterministicBytes(count: chunkSize * chunkCount, seed: 3)
            let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
                for index in 0..<chunkCount {
                    let start = bytes.startIndex + index * chunkSize
                    continuation.yield(ArraySlice(bytes[start ..< start + chunkSize]))
                }
                continuation.finish()
            }
            let length: HTTPBody.Length = declaresLength ? .known(Int64(bytes.count)) : .unknown
            let upload = HTTPBody(chunks, length: length)

            let echo = try await transport.client(for: server).postAnything(body: .binary(upload)).ok.body.json

            #expect(echo.method == "POST")
            #expect(Data(base64Encoded: echo.body) == bytes)
            let fields = Dictionary(echo.headers.map { ($0.name.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
            #expect(fields["content-type"] == "application/octet-stream")
            if declaresLength {
                #expect(fields["content-length"] == String(bytes.count))
                #expect(fields["transfer-encoding"] == nil)
            } else if transport.sendsUploadsAsProduced {
                #expect(fields["transfer-encoding"] == "chunked")
                #expect(fields["content-length"] == nil)
            } else {
                // Spooled to a file first, and sent with the file's length.
                #expect(fields["content-length"] == String(bytes.count))
            }
        }
    }
}
