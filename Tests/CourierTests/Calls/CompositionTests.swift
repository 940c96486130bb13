#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization
import Testing

/// A `Networking` double that records what it was sent and answers 200 with the request's headers.
final class RecordingNetworking: Sendable {
    let sent = Mutex<[URLRequest]>([])

    var networking: Networking {
        { request in
            self.sent.withLock { $0.append(request) }
            return (Data(), try httpResponse(for: request, status: 200))
        }
    }

    var last: URLRequest? { sent.withLock { $0.last } }
}

@Suite struct CompositionTests {
    let url = URL(string: "http://127.0.0.1/x")!

    @Test func combineFixesTheArgument() async throws {
        let double = RecordingNetworking()
        let call = combine(URLRequest(url: url), with: double.networking)
        _ = try await call()
        #expect(double.last?.url == url)
        #expect(combine(20, with: { $0 + 1 })() == 21)
    }

    @Test func chainPassesOutputToInput() async throws {
        let makeRequest: @Sendable (Int) -> URLRequest = { id in URLRequest(url: URL(string: "http://127.0.0.1/users/\(id)")!) }
        let double = RecordingNetworking()
        let fetchUser = chain(makeRequest, to: double.networking)
        _ = try await fetchUser(7)
        #expect(double.last?.url?.path == "/users/7")
        #expect(chain({ (x: Int) in x * 2 }, to: { (y: Int) in "\(y)" })(21) == "42")
    }

    @Test func chainAcceptsACurriedInstanceMethod() {
        struct Box { let value: Int; func doubled() -> Int { value * 2 } }
        let make: @Sendable (Int) -> Box = { Box(value: $0) }
        let doubled = chain(make, to: Box.doubled)
        #expect(doubled(5) == 10)
    }

    @Test func chainPutsARequestFunctionBeforeNetworking() async throws {
        let double = RecordingNetworking()
        let tagged = chain({ (request: URLRequest) in
            var request = request
            request.setValue("1", forHTTPHeaderField: "X-Tag")
            return request
        }, to: double.networking)
        _ = try await tagged(URLRequest(url: url))
        #expect(double.last?.value(forHTTPHeaderField: "X-Tag") == "1")
    }
}

@Suite struct CurriedChainTests {
    struct Product: Decodable, Sendable, Equatable { var id: Int }

    @Test func chainsADataLoaderIntoFutureDecoded() async throws {
        let loadData: @Sendable (Int) -> Future<Data> = { id in Future(value: Data(#"{"id":\#(id)}"#.utf8)) }
        let loadProduct: @Sendable (Int) -> Future<Product> = chain(loadData, to: Future<Data>.decoded)
        #expect(try await loadProduct(7).value == Product(id: 7))
    }
}
