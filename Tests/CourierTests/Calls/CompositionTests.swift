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

    @Test func composeAppliesModifierBeforeNetworking() async throws {
        let double = RecordingNetworking()
        let authorized = compose(bearerToken("t0k3n"), double.networking)
        _ = try await authorized(URLRequest(url: url))
        #expect(double.last?.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
    }

    @Test func modifiersComposeInOrder() async throws {
        let double = RecordingNetworking()
        let modifier = compose(compose(defaultHeaders(["Accept": "application/json", "X-Keep": "default"]), defaultHeaders(["User-Agent": "Courier-Test/1"])),
                               bearerToken("a"))
        var request = URLRequest(url: url)
        request.setValue("mine", forHTTPHeaderField: "x-keep")
        _ = try await compose(modifier, double.networking)(request)
        let sent = try #require(double.last)
        #expect(sent.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(sent.value(forHTTPHeaderField: "X-Keep") == "mine")
        #expect(sent.value(forHTTPHeaderField: "User-Agent") == "Courier-Test/1")
        #expect(sent.value(forHTTPHeaderField: "Authorization") == "Bearer a")
    }

    @Test func bearerTokenReplacesAnyExistingAuthorization() {
        var request = URLRequest(url: url)
        request.setValue("Basic x", forHTTPHeaderField: "authorization")
        let modified = bearerToken("new")(request)
        #expect(modified.allHTTPHeaderFields?.count == 1)
        #expect(modified.value(forHTTPHeaderField: "Authorization") == "Bearer new")
    }

    @Test func aTokenWithCRLFIsKeptSoTheTransportRefusesIt() {
        let modified = bearerToken("x\r\nInjected: yes")(URLRequest(url: url))
        #expect(throws: RequestError.self) { try modified.validateForSending() }
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
