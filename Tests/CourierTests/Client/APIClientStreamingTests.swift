#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing

@Suite struct APIClientStreamingTests {
    let base = URL(string: "http://127.0.0.1:1/api/")!

    /// A streaming double that answers `status` with `body`, followed by the upload's bytes.
    private func streaming(status: Int, body: Data) -> StreamingNetworking {
        { request, upload in
            var answer = body
            if let upload { answer.append(try await upload.collect()) }
            return (ResponseBody(answer), try responseHead(for: request, status: status))
        }
    }

    @Test func anAcceptableResponseHandsOverItsBody() async throws {
        var client = APIClient(baseURL: base, networking: stub(status: 500))
        client.streaming = streaming(status: 200, body: Data("streamed body".utf8))
        let (body, response) = try await client.stream(Request<ResponseBody>("files/1"))
        #expect(response.statusCode == 200)
        #expect(try await body.collect(upTo: 100) == Data("streamed body".utf8))
    }

    @Test func theUploadGoesToTheStreamingNetworking() async throws {
        var client = APIClient(baseURL: base, networking: stub(status: 500))
        client.streaming = streaming(status: 200, body: Data("ok:".utf8))
        let chunks = AsyncStream<Data> { $0.yield(Data("up".utf8)); $0.finish() }
        let (body, _) = try await client.stream(Request<ResponseBody>("files", method: .put(.stream(chunks))))
        #expect(try await body.collect(upTo: 100) == Data("ok:up".utf8))
    }

    @Test func anUnacceptableStatusIsAnAPIErrorWithTheBodysStart() async throws {
        let long = Data(repeating: UInt8(ascii: "e"), count: 100_000)
        var client = APIClient(baseURL: base, networking: stub(status: 500))
        client.streaming = streaming(status: 404, body: long)
        do {
            _ = try await client.stream(Request<ResponseBody>("files/missing"))
            Issue.record("expected an APIError")
        } catch {
            #expect(error.kind == .notFound)
            #expect(error.body?.count == 64 << 10)
        }
    }

    @Test func withoutAStreamingNetworkingTheDispatchersIsBuffered() async throws {
        let client = APIClient(baseURL: base, networking: stub(status: 200, body: "buffered"))
        let (body, _) = try await client.stream(Request<ResponseBody>("files/1"))
        #expect(try await body.collect(upTo: 100) == Data("buffered".utf8))
    }
}
