#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization
import Testing

@Suite struct DefaultHeadersTests {
    let url = URL(string: "http://127.0.0.1/x")!

    private func send(_ request: URLRequest, under policies: Policies) async throws -> URLRequest {
        let double = RecordingNetworking()
        _ = try await policies.apply(to: double.networking)(request)
        return try #require(double.last)
    }

    @Test func everyRequestCarriesThePoliciesFieldsUnlessItSetsThem() async throws {
        var policies = Policies()
        policies.headers = ["Accept": "application/json", "X-Keep": "default"]
        var request = URLRequest(url: url)
        request.setValue("mine", forHTTPHeaderField: "x-keep")
        let sent = try await send(request, under: policies)
        #expect(sent.value(forHTTPHeaderField: "Accept") == "application/json")
        #expect(sent.value(forHTTPHeaderField: "X-Keep") == "mine")
    }

    @Test func theUserAgentIsCouriersThenThePoliciesThenTheHeadersThenTheRequests() async throws {
        var policies = Policies()
        #expect(try await send(URLRequest(url: url), under: policies).value(forHTTPHeaderField: "User-Agent")?.contains("Courier/\(courierVersion)") == true)
        policies.userAgent = "app/2"
        #expect(try await send(URLRequest(url: url), under: policies).value(forHTTPHeaderField: "User-Agent") == "app/2")
        policies.headers = ["user-agent": "app/3"]
        #expect(try await send(URLRequest(url: url), under: policies).value(forHTTPHeaderField: "User-Agent") == "app/3")
        var own = URLRequest(url: url)
        own.setValue("mine/1", forHTTPHeaderField: "User-Agent")
        #expect(try await send(own, under: policies).value(forHTTPHeaderField: "User-Agent") == "mine/1")
    }

    @Test func callLayersSeeTheFieldsAsTheyGoOut() async throws {
        let seen = FieldRecorder(name: "Accept")
        var policies = Policies()
        policies.headers = ["Accept": "application/json"]
        policies.callLayers = [seen]
        _ = try await send(URLRequest(url: url), under: policies)
        #expect(seen.values == ["application/json"])
    }

    @Test func aValueWithCRLFIsKeptSoTheEngineRefusesIt() async throws {
        var policies = Policies()
        policies.headers = ["X-Key": "x\r\nInjected: yes"]
        let sent = try await send(URLRequest(url: url), under: policies)
        #expect(throws: RequestError.self) { try sent.validateForSending() }
    }

    @Test func aFixedCredentialGoesToItsOriginAndA401IsTheAnswer() async throws {
        let requests = Mutex(0)
        let unauthorized: Networking = { request in
            requests.withLock { $0 += 1 }
            #expect(request.value(forHTTPHeaderField: "Authorization") == "Bearer t0k3n")
            return (Data(), try httpResponse(for: request, status: 401))
        }
        var policies = Policies()
        policies.callLayers = [Authentication(origin: url, credential: .bearer("t0k3n"))]
        let (_, response) = try await policies.apply(to: unauthorized)(URLRequest(url: url))
        #expect((response as? HTTPURLResponse)?.statusCode == 401)
        #expect(requests.withLock { $0 } == 1)
        let elsewhere = RecordingNetworking()
        _ = try await policies.apply(to: elsewhere.networking)(URLRequest(url: try #require(URL(string: "http://127.0.0.2/x"))))
        #expect(elsewhere.last?.value(forHTTPHeaderField: "Authorization") == nil)
    }
}

/// Records the value of one field of every request it sees.
private final class FieldRecorder: HTTPExchangeLayer, Sendable {
    let name: String
    private let seen = Mutex<[String?]>([])
    var values: [String?] { seen.withLock { $0 } }

    init(name: String) {
        self.name = name
    }

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        seen.withLock { $0.append(request.value(forHTTPHeaderField: name)) }
        return try await next(request)
    }
}
