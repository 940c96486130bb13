#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier
import CourierCombine
import CourierTestSupport
import Testing

/// A `Networking` double answering every request with `status` and `body`.
func stubNetworking(status: Int, body: String = "") -> Networking {
    { request in
        let response = HTTPURLResponse(url: request.url!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
        return (Data(body.utf8), response)
    }
}

@Suite("Networking publishers")
struct NetworkingPublisherTests {
    let request = URLRequest(url: URL(string: "http://127.0.0.1:1/items")!)

    @Test func publishesTheBodyAndResponse() async throws {
        let recording = try await record(publisher(for: request, using: stubNetworking(status: 201, body: "hi")))
        #expect(recording.values.map(\.data) == [Data("hi".utf8)])
        #expect(recording.values.map { ($0.response as? HTTPURLResponse)?.statusCode } == [201])
        #expect(recording.finished)
    }

    @Test func publishesTheTransportError() async throws {
        let failing: Networking = { _ in throw URLError(.timedOut) }
        let recording = try await record(publisher(for: request, using: failing))
        #expect((recording.failure as? URLError)?.code == .timedOut)
    }

    @Test func adaptsANetworkingFunctionIntoANetworkingPublisher() async throws {
        let seen = Locked<[String]>([])
        let networking: Networking = { request in
            seen.withLock { $0.append(request.url?.path ?? "") }
            return try await stubNetworking(status: 200, body: "ok")(request)
        }
        let adapted: NetworkingPublisher = networkingPublisher(from: networking)
        let published = adapted(request)
        #expect(seen.value.isEmpty)   // cold: nothing is sent before a subscriber asks

        let recording = try await record(published.map(\.data))
        #expect(recording.values == [Data("ok".utf8)])
        #expect(seen.value == ["/items"])
    }

    @Test func cancellingTheSubscriptionCancelsTheRequest() async throws {
        let started = Promise<Void>()
        let cancelled = Promise<Void>()
        let networking: Networking = { _ in
            started.resolve()
            do {
                // A transport stalled on the network until its task is cancelled.
                try await Promise<Void>().future.value
            } catch {
                cancelled.resolve()
                throw URLError(.cancelled)
            }
            throw URLError(.unknown)
        }
        let cancellable = publisher(for: request, using: networking)
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        try await awaitWithin { try await started.future.value }
        cancellable.cancel()
        try await awaitWithin { try await cancelled.future.value }
    }
}
