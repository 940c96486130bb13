#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// A transport over the app's own session, whatever `COURIER_TRANSPORT` says: without Courier's
/// delegate a completion handler collects the body, and the engine still answers both calls.
@Suite(.timeLimit(.minutes(5))) struct URLSessionTransportOwnSessionTests {
    @Test func aCompletionHandlerCollectsTheBodyForBothCalls() async throws {
        let server = try await TestServer.start()
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))

        let (data, head) = try await transport.exchange(URLRequest(url: server.url("/bytes/1000")))
        #expect(head.statusCode == 200)
        #expect(data.count == 1000)
        #expect(head.metrics.decodedBodyBytes == 1000)
        #expect(head.metrics.total != nil)
        #expect(head.metrics.firstByte == nil, "no delegate of Courier's sees the head arrive")

        let (body, streamedHead) = try await transport.stream(for: URLRequest(url: server.url("/bytes/1000")))
        #expect(streamedHead.statusCode == 200)
        #expect(try await body.collect(upTo: 10_000).count == 1000)

        await transport.shutdown()
        try await server.shutdown()
    }

    /// Collected or not, an upload goes out as an upload, which FoundationNetworking does not
    /// label a form as it labels a POST's own body.
    @Test func anUploadIsSentAsOneWithoutCourierDelegate() async throws {
        let server = try await TestServer.start()
        let transport = URLSessionTransport(session: URLSession(configuration: .ephemeral))
        var request = URLRequest(url: server.url("/anything"))
        request.httpMethod = "POST"
        request.httpBody = Data("own".utf8)

        let (body, _) = try await transport.stream(for: request, uploading: .data(Data("uploaded".utf8)))
        _ = try await body.collect(upTo: 1 << 20)
        let received = try #require(server.lastRequest)
        #expect(received.values(for: "Content-Type") == [])
        #expect(received.body == Data("uploaded".utf8))

        _ = try await transport.exchange(request)
        #expect(server.lastRequest?.values(for: "Content-Type") == ["application/x-www-form-urlencoded"])
        #expect(server.lastRequest?.body == Data("own".utf8))

        await transport.shutdown()
        try await server.shutdown()
    }
}
