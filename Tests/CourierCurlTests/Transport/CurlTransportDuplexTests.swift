#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// Duplex exchanges on libcurl: the response streams back while the upload is still open, and
/// ending either side ends the other with nothing left behind (the upload's producing task, the
/// easy handle).
@Suite("CurlTransport duplex exchanges")
struct CurlTransportDuplexTests {
    private struct ProducerFailure: Error, CustomStringConvertible {
        var description: String { "the microphone was unplugged" }
    }

    private static let hello = Data("hello\n".utf8)

    private func duplexRequest(_ server: TestServer) -> URLRequest {
        var request = URLRequest(url: server.url("/duplex-echo"))
        request.httpMethod = "POST"
        return request
    }

    @Test func cancellingTheBodyReadEndsTheUploadSequenceAndFreesTheHandle() async throws {
        try await withCurlTransport { server, transport in
            let ended = Promise<AsyncStream<Data>.Continuation.Termination>()
            let (upload, producer) = AsyncStream.makeStream(of: Data.self)
            producer.onTermination = { ended.resolve(with: $0) }
            producer.yield(Self.hello)
            let (body, _) = try await transport.stream(for: duplexRequest(server), uploading: .duplex(upload))
            let echoed = Promise<Void>()
            let reader = Task {
                var received = Data()
                for try await chunk in body {
                    received.append(chunk)
                    if received == Self.hello { echoed.resolve(with: ()) }
                }
            }
            try await awaitWithin { try await echoed.future.value }
            // The upload is open and waiting for its next piece, the body for its next byte.
            reader.cancel()
            await #expect {
                try await reader.value
            } throws: { error in
                (error as? URLError)?.code == .cancelled
            }
            #expect(try await awaitWithin { try await ended.future.value } == .cancelled)
            try await awaitWithin {
                while transport.statistics.running != 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            let statistics = transport.statistics
            #expect(statistics.idleHandles == statistics.liveHandles)
        }
    }

    @Test func anUploadSequenceThatThrowsFailsTheBodyWithATypedError() async throws {
        try await withCurlTransport { server, transport in
            let (upload, producer) = AsyncThrowingStream.makeStream(of: Data.self)
            producer.yield(Self.hello)
            let request = duplexRequest(server)
            let (body, head) = try await transport.stream(for: request, uploading: .duplex(upload))
            #expect(head.statusCode == 200)
            let error = await #expect(throws: URLError.self) {
                try await awaitWithin {
                    var received = Data()
                    for try await chunk in body {
                        received.append(chunk)
                        // Only once the first piece came back, so the failure is mid-conversation.
                        if received == Self.hello { producer.finish(throwing: ProducerFailure()) }
                    }
                }
            }
            let description = error.map { "\($0.localizedDescription) \($0)" } ?? ""
            #expect(description.contains("the microphone was unplugged"), "\(description)")
            #expect(description.contains("POST") && description.contains(request.url?.absoluteString ?? "?"), "\(description)")
            try await awaitWithin {
                while transport.statistics.running != 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            #expect(transport.statistics.idleHandles == transport.statistics.liveHandles)
        }
    }

    /// Many rounds, each a line of a few bytes: every echo must come back before the next line
    /// is produced, so no round can wait for a buffer to fill.
    @Test(arguments: [false, true])
    func aLongConversationNeverWaitsForABufferToFill(opensWithALine: Bool) async throws {
        try await withCurlTransport { server, transport in
            let conversation = DuplexConversation(rounds: 200, opensWithALine: opensWithALine)
            let request = duplexRequest(server)
            let transcript = try await awaitWithin {
                try await conversation.hold(over: { try await transport.stream(for: $0, uploading: $1) }, request: request)
            }
            #expect(transcript.afterEachRound == (0..<200).map { conversation.sent(through: $0) })
            #expect(transcript.whole == conversation.sent(through: 199))
        }
    }

    /// Over HTTP/2 (nginx in front of the test server, h2 over TLS, bodies unbuffered both
    /// ways): the echo of each DATA frame comes back while the request stream is open. The
    /// first line goes with the request: nginx forwards a request to its upstream only once
    /// the first DATA frame arrived, so a conversation whose server speaks first cannot pass it.
    @Test func aConversationCompletesOverHTTP2() async throws {
        let server = try await TestServer.start()
        do {
            try await withHTTP2Proxy(upstreamPort: server.port) { proxy, files in
                var configuration = CurlTransport.Configuration()
                configuration.caBundlePath = files.caBundlePath
                let transport = try CurlTransport(configuration: configuration)
                var request = URLRequest(url: proxy.tlsURL("/duplex-echo"))
                request.httpMethod = "POST"
                let conversation = DuplexConversation(rounds: 5, opensWithALine: true)
                let result = await outcome { [request] in
                    try await awaitWithin {
                        try await conversation.hold(over: { try await transport.stream(for: $0, uploading: $1) }, request: request)
                    }
                }
                await transport.shutdown()
                let transcript = try result.get()
                #expect(transcript.head.httpVersion == .http2)
                #expect(transcript.afterEachRound == (0..<5).map { conversation.sent(through: $0) })
                #expect(transcript.whole == conversation.sent(through: 4))
            }
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }
}
