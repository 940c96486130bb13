#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Synchronization
import Testing
@testable import CachingOffline
@testable import CachingOverview
@testable import ChoosingATransportConfiguration
@testable import ChoosingATransportParity
@testable import ComingFromDerivingFuture
@testable import ComingFromFunctionalNetworking
@testable import ComingFromNetworkingWithFunctions
@testable import ComingFromTypeSafeNetworking
@testable import ComingFromWireKit
@testable import CourierCombineOverview
@testable import CourierOverview
@testable import CourierOverviewPost
@testable import CourierSSEOverview
@testable import StreamingDownload
@testable import StreamingDuplex
@testable import StreamingMetrics
@testable import StreamingMultipart
@testable import StreamingResume
@testable import StreamingSequence
@testable import WebSocketsChat
@testable import ImplementingATransportEngine
@testable import PoliciesLayers
import CourierWebSocketTestSupport

/// Runs the DocC articles' examples: against stubs where they name a real API, against a test
/// server on 127.0.0.1 where they take a base URL. Never any other network.
@Suite struct DocCSnippetTests {
    @Test func bothEnginesAnswerFromOneDirectoryAndOfflineReadsWhatIsStored() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("courier-snippet-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await withTestServer { server in
            let (urlSession, curl) = try cachingTransports(in: directory)
            let fresh = server.url("/cache/snippet-\(UUID().uuidString)?cc=max-age%3D600")
            let validated = server.url("/cache/snippet-\(UUID().uuidString)?etag=v1")
            let sources = [
                try await source(of: fresh, over: urlSession), try await source(of: fresh, over: curl),
                try await source(of: validated, over: curl), try await source(of: validated, over: urlSession),
            ]
            #expect(sources == [.network, .cache, .network, .revalidated])
            let stored = try await profile(at: validated, offline: true, over: curl)
            #expect(stored.map { String(decoding: $0, as: UTF8.self) }?.hasPrefix("visit 1 of") == true)
            let missing = try await profile(at: server.url("/cache/snippet-never-fetched"), offline: true, over: urlSession)
            #expect(missing == nil)
            #expect(server.visits("cache-snippet-never-fetched") == 0)
            await urlSession.shutdown()
            await curl.shutdown()
        }
    }

    @Test func aChatHearsEachAnswerBeforeTheNextQuestion() async throws {
        let answers = try await withTestServer { server in
            let transport = try CurlTransport()
            let url = server.url("/duplex-echo")
            do {
                let answers = try await awaitWithin { try await chat(["hello", "again"], at: url, over: transport) }
                await transport.shutdown()
                return answers
            } catch {
                await transport.shutdown()
                throw error
            }
        }
        #expect(answers == ["hello", "again"])
    }

    @Test func aReportFormArrivesWithItsFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-report-\(UUID().uuidString).pdf")
        try Data("%PDF-1.7 report".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (path, recorded) = try await withTestServer { server in
            let transport = URLSessionTransport()
            let client = APIClient(baseURL: server.url("/anything/"), transport: transport)
            do {
                let receipt = try await uploadReport(file, titled: "Q3", with: client)
                await transport.shutdown()
                return (receipt.path, server.lastRequest)
            } catch {
                await transport.shutdown()
                throw error
            }
        }
        #expect(path == "/anything/reports")
        let request = try #require(recorded)
        let form = try await ParsedMultipartForm.parse(request.body, contentType: try #require(request.value(for: "Content-Type")))
        #expect(form.parts.map(\.name) == ["title", "report"])
        #expect(form.parts.map(\.contentType) == [nil, "application/pdf"])
        #expect(form.parts.last?.content == Data("%PDF-1.7 report".utf8))
    }

    @Test func userServiceReportsAMissingUserAsNotFound() async throws {
        let kind = try await withTestServer { server in
            do throws(APIError) {
                _ = try await UserService(baseURL: server.baseURL).user(id: 42)
                return APIError.Kind?.none
            } catch {
                return error.kind
            }
        }
        #expect(kind == .notFound)
    }

    /// The status route takes no code named "orders" and refuses with a 400: the snippet's
    /// refusal, with the server's reason, after a POST whose body is the draft as JSON.
    @Test func anOrderGoesOutAsJSONAndARefusalComesBackWithItsReason() async throws {
        let (reason, recorded) = try await withTestServer { server in
            let transport = URLSessionTransport()
            let client = APIClient(baseURL: server.url("/status/"), transport: transport)
            var reason: String?
            do {
                _ = try await submit(OrderDraft(item: "tea", quantity: 2), with: client)
            } catch OrderFailure.rejected(let text) {
                reason = text
            } catch {
                Issue.record("expected a rejection, got \(error)")
            }
            await transport.shutdown()
            return (reason, server.lastRequest)
        }
        #expect(reason?.contains("status code must be") == true)
        let request = try #require(recorded)
        #expect(request.method == "POST")
        #expect(request.value(for: "Content-Type") == "application/json")
        let sent = try JSONSerialization.jsonObject(with: request.body) as? [String: Any]
        #expect(sent?["item"] as? String == "tea")
        #expect(sent?["quantity"] as? Int == 2)
    }

    @Test func configuredClientSendsThroughTheConfiguredTransport() async throws {
        let data = try await withTestServer { server in
            try await makeClient(baseURL: server.baseURL, policies: Policies()).send(Request<Data>("get"))
        }
        #expect(!data.isEmpty)
    }

    @Test func parityReportFindsNoDifferenceOnPlainRoutes() async throws {
        let differences = try await withTestServer { server in
            try await disagreements(on: [server.url("/get"), server.url("/status/404")])
        }
        #expect(differences.isEmpty)
    }

    @Test func productLoadingChainsRequestDataAndDecoding() async throws {
        let stub = StubNetworking(body: #"{"id": 7, "name": "iPad Pro"}"#)
        let api = ProductAPI(baseURL: try #require(URL(string: "https://shop.example.com/")), networking: stub.networking)
        let product = try await awaitWithin { try await api.loading(productID: 7)().value }
        #expect(product.name == "iPad Pro")
        #expect(stub.requests.map(\.url?.absoluteString) == ["https://shop.example.com/products/7"])
        #expect(try await previewLoading().value.id == 7)
    }

    @Test func feedServicesTakeAMockAndAnAuthorizedNetworking() async throws {
        #expect(try await mockedFeedService.fetchFeed().items == ["hello"])
        let echoed = try await withTestServer { server in
            let (data, _) = try await authorizedNetworking(token: "t0k", origin: server.baseURL)(URLRequest(url: server.url("/anything")))
            return String(decoding: data, as: UTF8.self)
        }
        #expect(echoed.contains("Bearer t0k"))
    }

    @Test func todoStoreMapsFailuresToWireKitNames() async throws {
        let (missing, undecodable) = try await withTestServer { server in
            let missing = await TodoStore(baseURL: server.baseURL).titles()
            let undecodable = await TodoStore(baseURL: server.url("/anything/")).titles()
            return (missing, undecodable)
        }
        guard case .failure(let notFound) = missing, case .failure(let decoding) = undecodable else {
            Issue.record("expected two failures, got \(missing) and \(undecodable)")
            return
        }
        #expect(notFound.kind == .notFound)
        #expect(message(for: notFound) == "not found")
        #expect(message(for: decoding).hasPrefix("decodingError: "))
    }

    @Test func todoStoreSendsTheTodoAsJSON() async throws {
        let stub = StubNetworking(body: #"{"title": "ship", "completed": true}"#)
        let store = TodoStore(baseURL: try #require(URL(string: "https://todos.example.com/")), networking: stub.networking)
        let added = try await store.add(Todo(title: "ship", completed: false))
        #expect(added.completed)
        #expect(stub.requests.first?.httpMethod == "POST")
        #expect(stub.requests.first?.url?.absoluteString == "https://todos.example.com/todos")
    }

    @Test func futuresFromCallbacksAndFromAsyncCodeChain() async throws {
        let empty = try #require(URL(string: "https://jars.example.com/empty"))
        let full = try #require(URL(string: "https://jars.example.com/full"))
        let stub = StubNetworking(body: #"{"cookies": 0}"#, bodies: [full.absoluteString: #"{"cookies": 3}"#])
        let count = try await awaitWithin { try await countCookies(at: empty, refillFrom: full, using: stub.networking).value }
        #expect(count == 3)
        let fetched = try await awaitWithin { try await data(at: full, using: stub.networking).value }
        #expect(String(decoding: fetched, as: UTF8.self) == #"{"cookies": 3}"#)
    }

    @Test func typeSafeSearchDecodesThroughThePhantomType() async throws {
        let stub = StubNetworking(body: #"{"items": [{"id": 1, "name": "swift"}]}"#)
        let repos = try await GitHub(networking: stub.networking).repositories(matching: "Swift")
        #expect(repos.map(\.name) == ["swift"])
        #expect(stub.requests.first?.url?.absoluteString == "https://api.github.com/search/repositories?q=Swift")
        #expect(searchesSwift)
    }

    @Test func latestPostIsACourierFuture() async throws {
        let stub = StubNetworking(body: #"{"id": 1, "title": "Hello"}"#)
        let service = PostService(client: APIClient(baseURL: try #require(URL(string: "https://blog.example.com/")), networking: stub.networking))
        let post = try await awaitWithin { try await service.latestPost().value }
        #expect(post.title == "Hello")
    }

    /// A layer of your own learns a streamed transfer's bytes once it has ended, and a buffered
    /// call's at once, on both engines.
    @Test func theTransferLogRecordsWholeTransfersOverBothTransports() async throws {
        for kind in TransportKind.allCases {
            let log = TransferLog()
            var policies = Policies()
            policies.callLayers = [log]
            let transport = try kind.makeTransport(policies: policies)
            let (streamed, buffered) = try await withTestServer { server in
                let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/sse/flood/131072")))
                let streamed = try await body.collect(upTo: 1 << 20).count
                let (data, _) = try await transport.data(for: URLRequest(url: server.url("/sse/flood/65536")))
                return (streamed, data.count)
            }
            await transport.shutdown()
            #expect(streamed == 131_072 && buffered == 65_536, "\(kind)")
            #expect(log.transfers.map(\.bytes) == [131_072, 65_536], "\(kind)")
            #expect(log.transfers.allSatisfy { !$0.failed }, "\(kind)")
        }
    }

    @Test func eventStreamSnippetDecodesEachTickOverBothTransports() async throws {
        for kind in TransportKind.allCases {
            let transport = try kind.makeTransport()
            let received = try await withTestServer { server in
                try await ticks(at: "sse", from: APIClient(baseURL: server.url("/"), transport: transport))
            }
            await transport.shutdown()
            #expect(received.map(\.index) == [1, 2, 3], "\(kind)")
            #expect(received.allSatisfy { $0.text == "caf\u{E9} \u{1F600}" }, "\(kind)")
        }
    }

    @Test func resumedEventsSnippetGoesOnAfterEachStreamOverBothTransports() async throws {
        for kind in TransportKind.allCases {
            let transport = try kind.makeTransport()
            let (received, visits) = try await withTestServer { server in
                let events = try await resumedEvents(
                    at: "sse/resumable/snippet?count=3&per_connection=2&retry_ms=0",
                    from: APIClient(baseURL: server.url("/"), transport: transport)
                )
                return (events, ["none", "2", "3"].map { server.visits("snippet:\($0)") })
            }
            await transport.shutdown()
            #expect(received.map(\.data) == ["1", "2", "3"], "\(kind)")
            #expect(visits == [1, 1, 1], "\(kind)")
        }
    }

    @Test func streamingSnippetsRunOverBothTransports() async throws {
        let curl = try CurlTransport()
        let urlSession = URLSessionTransport()
        let transports: [(String, any HTTPTransport)] = [("urlsession", urlSession), ("curl", curl)]
        try await withTestServer { server in
            for (name, transport) in transports {
                let destination = FileManager.default.temporaryDirectory.appendingPathComponent("courier-snippet-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: destination) }
                let written = try await saveBody(of: server.url("/bytes/300000"), to: destination, over: transport)
                #expect(written == 300_000, "\(name)")
                #expect(try Data(contentsOf: destination).count == 300_000, "\(name)")
                #expect(try await sendLines(["a", "b"], to: server.url("/anything"), over: transport) == 200, "\(name)")
                let (firstByte, total) = try await timeDownload(of: server.url("/delay/0.1"), over: transport)
                #expect(try #require(firstByte, "\(name)") >= .milliseconds(100), "\(name)")
                #expect(try #require(total, "\(name)") >= firstByte ?? .zero, "\(name)")
            }
        }
        await curl.shutdown()
        await urlSession.shutdown()
    }

    /// The server cuts the first answer half-way; the snippet's retry resumes it with a 206.
    @Test func theResumeSnippetFinishesACutDownloadOverBothTransports() async throws {
        let curl = try CurlTransport()
        let urlSession = URLSessionTransport()
        let transports: [(String, any HTTPTransport)] = [("urlsession", urlSession), ("curl", curl)]
        try await withTestServer { server in
            for (name, transport) in transports {
                let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-snippet-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: file) }
                let response = try await downloadImage(from: server.url("/range/400000?seed=3&cut_at=150000"), to: file, transport: transport)
                #expect((response as? HTTPURLResponse)?.statusCode == 206, "\(name)")
                #expect(try Data(contentsOf: file) == TestServer.deterministicBytes(count: 400_000, seed: 3), "\(name)")
            }
        }
        await curl.shutdown()
        await urlSession.shutdown()
    }

    /// The chat snippet against a NIO WebSocket echo server: every line comes back on the curl
    /// engine; the URLSession engine opens too where Foundation has WebSockets, and refuses by
    /// name where it has not.
    @Test func theWebSocketSnippetChatsWithAnEchoServer() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let url = try #require(URL(string: server.url()))
        let curl = try CurlTransport()
        #if os(Linux)
        #expect(try await chatOverWebSocket(["hello", "again"], at: url, over: curl) == ["hello", "again"])
        #endif
        let urlSession = URLSessionTransport()
        do {
            #expect(try await chatOverWebSocket(["hello"], at: url, over: urlSession) == ["hello"])
        } catch let error as RequestError {
            #expect(error.description.contains("URLSessionTransport cannot open a WebSocket"))
        }
        await curl.shutdown()
        await urlSession.shutdown()
        try await server.shutdown()
    }
}

/// The engine written outside the package, run through `APIClient` and the policies.
@Suite struct ImplementingATransportSnippetTests {
    let fixtures: [String: FixtureTransport.Fixture] = [
        "/old-profile": .init(status: 301, fields: ["Location": "/profile"]),
        "/profile": .init(fields: ["Content-Type": "application/json"], body: Data(#"{"name":"Ada"}"#.utf8)),
    ]

    @Test func theRedirectLayerFollowsTheEnginesAnswerAndTheClientDecodes() async throws {
        let profile = try await ImplementingATransportEngine.profile(over: fixtures)
        #expect(profile.name == "Ada")
    }

    @Test func callAndHopLayersSeeTheCallAndEachHop() async throws {
        let calls = URLRecorder(), hops = URLRecorder()
        var policies = Policies()
        policies.callLayers = [calls]
        policies.hopLayers = [hops]
        _ = try await ImplementingATransportEngine.profile(over: fixtures, policies: policies)
        #expect(calls.paths == ["/old-profile"])
        #expect(hops.paths == ["/old-profile", "/profile"])
    }

    @Test func aBufferedCallIsBoundedByThePoliciesLimit() async throws {
        var policies = Policies()
        policies.maximumResponseBytes = 10_000
        let large = ["/old-profile": FixtureTransport.Fixture(body: Data(repeating: 0x20, count: 20_000))]
        let error = await #expect(throws: APIError.self) { try await ImplementingATransportEngine.profile(over: large, policies: policies) }
        #expect(error?.urlError?.code == .dataLengthExceedsMaximum)
        #expect(error?.description.contains("Policies.maximumResponseBytes") == true)
    }

    @Test func aStreamedBodyArrivesInTheEnginesChunks() async throws {
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        let transport = FixtureTransport(["/file": .init(body: body)])
        let (stream, head) = try await transport.stream(for: URLRequest(url: try #require(URL(string: "https://fixtures.invalid/file"))))
        var chunks: [Data] = []
        for try await chunk in stream { chunks.append(chunk) }
        #expect(head.statusCode == 200)
        #expect(chunks.map(\.count) == [4096, 4096, 1808])
        #expect(Data(chunks.joined()) == body)
    }

    @Test func anUnknownPathFailsAsAConnectionWould() async throws {
        let error = await #expect(throws: APIError.self) { try await ImplementingATransportEngine.profile(over: [:]) }
        #expect(error?.urlError?.code == .cannotConnectToHost)
        #expect(error?.description.contains("GET https://fixtures.invalid/old-profile") == true)
    }
}

/// Records the path of every request it sees.
private final class URLRecorder: HTTPExchangeLayer, Sendable {
    private let seen = Mutex<[String]>([])
    var paths: [String] { seen.withLock { $0 } }

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        seen.withLock { $0.append(request.url?.path ?? "") }
        return try await next(request)
    }
}
