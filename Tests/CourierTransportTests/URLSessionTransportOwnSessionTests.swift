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
}
