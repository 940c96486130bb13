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

private struct Item: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

@Suite("APIClient and Dispatcher publishers")
struct APIClientPublisherTests {
    let base = URL(string: "http://127.0.0.1:1/api/")!

    @Test func decodesTheRequestsResponseType() async throws {
        let client = APIClient(baseURL: base, networking: stubNetworking(status: 200, body: #"{"id":1,"name":"Ada"}"#))
        let recording = try await record(client.publisher(for: Request<Item>("items/1")))
        #expect(recording.values == [Item(id: 1, name: "Ada")])
        #expect(recording.finished)
    }

    @Test func sendsTheResolvedRequest() async throws {
        let urls = Locked<[String]>([])
        let client = APIClient(baseURL: base, networking: { request in
            urls.withLock { $0.append(request.url?.absoluteString ?? "") }
            return try await stubNetworking(status: 204)(request)
        })
        let recording = try await record(client.publisher(for: Request<Void>("items/1", method: .delete)))
        #expect(recording.values.count == 1)
        #expect(recording.finished)
        #expect(urls.value == ["http://127.0.0.1:1/api/items/1"])
    }

    @Test func dataRequestsPublishRawBytes() async throws {
        let client = APIClient(baseURL: base, networking: stubNetworking(status: 200, body: "not json"))
        let recording = try await record(client.publisher(for: Request<Data>("blob")))
        #expect(recording.values == [Data("not json".utf8)])
    }

    @Test func statusFailuresArriveAsTypedAPIError() async throws {
        let client = APIClient(baseURL: base, networking: stubNetworking(status: 404, body: "gone"))
        let publisher: AnyPublisher<Item, APIError> = client.publisher(for: Request<Item>("items/2"))
        let recording = try await record(publisher)
        #expect(recording.values.isEmpty)
        #expect(recording.failure?.statusCode == 404)
        #expect(recording.failure?.body == Data("gone".utf8))
    }

    @Test func decodingFailuresArriveAsAPIError() async throws {
        let client = APIClient(baseURL: base, networking: stubNetworking(status: 200, body: #"{"id":"x"}"#))
        let recording = try await record(client.publisher(for: Request<Item>("items/3")))
        let isDecoding = if case .decoding = recording.failure?.kind { true } else { false }
        #expect(isDecoding)
    }

    @Test func dispatcherPublishesBodyAndValidatedResponse() async throws {
        let dispatcher = Dispatcher(networking: stubNetworking(status: 200, body: #"{"id":4,"name":"Lin"}"#))
        let request = URLRequest(url: URL(string: "http://127.0.0.1:1/api/items/4")!)

        let raw = try await record(dispatcher.publisher(for: request))
        #expect(raw.values.map(\.response.statusCode) == [200])
        #expect(raw.values.map(\.data) == [Data(#"{"id":4,"name":"Lin"}"#.utf8)])

        let decoded = try await record(dispatcher.publisher(for: request, as: Item.self))
        #expect(decoded.values == [Item(id: 4, name: "Lin")])
    }

    @Test func dispatcherRejectsUnacceptableStatuses() async throws {
        let dispatcher = Dispatcher(networking: stubNetworking(status: 500, body: "boom"))
        let request = URLRequest(url: URL(string: "http://127.0.0.1:1/api/items/5")!)
        let recording = try await record(dispatcher.publisher(for: request))
        #expect(recording.failure?.statusCode == 500)
    }

    @Test func cancellingAClientPublisherCancelsTheRequest() async throws {
        let started = Promise<Void>()
        let cancelled = Promise<Void>()
        let client = APIClient(baseURL: base, networking: { _ in
            started.resolve()
            do {
                try await Promise<Void>().future.value
            } catch {
                cancelled.resolve()
            }
            throw URLError(.cancelled)
        })
        let cancellable = client.publisher(for: Request<Item>("items/6"))
            .sink(receiveCompletion: { _ in }, receiveValue: { _ in })
        try await awaitWithin { try await started.future.value }
        cancellable.cancel()
        try await awaitWithin { try await cancelled.future.value }
    }
}
