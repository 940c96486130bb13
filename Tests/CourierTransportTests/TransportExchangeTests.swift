#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// Each transport's `exchange`, and `APIClient` over it: the same answers as through
/// `Networking`, with Courier's own head.
@Suite(.testServer) struct TransportExchangeTests {
    private func exchange(_ transport: TransportKind) throws -> HTTPExchange {
        switch transport {
        case .urlSession: TransportKind.sharedURLSessionTransport.exchange
        case .curl: try TransportKind.sharedCurlTransport.exchange
        }
    }

    @Test(arguments: TransportKind.configured)
    func theHeadCarriesStatusFieldsURLAndVersion(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (data, head) = try await exchange(transport)(URLRequest(url: server.url("/response-headers?X-Test=1&X-Test=2")))
        #expect(head.statusCode == 200)
        #expect(head.url == server.url("/response-headers?X-Test=1&X-Test=2"))
        #expect(head.httpVersion == .http1_1)
        #expect(head.headerFields["x-test"] == "1, 2")
        #expect(Int(head.headerFields["Content-Length"] ?? "") == data.count)
    }

    @Test(arguments: TransportKind.configured)
    func redirectsAreFollowedAndEachHopIsCounted(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (_, head) = try await exchange(transport)(URLRequest(url: server.url("/redirect/2")))
        #expect(head.statusCode == 200)
        #expect(head.url?.path == "/get")
        #expect(head.metrics.redirects.count == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aClientOverTheExchangeDecodesAndKeepsTheHead(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let client = APIClient(baseURL: server.baseURL, exchange: try exchange(transport))
        let (echo, head) = try await client.response(to: Request<Echo>("get", method: .get([URLQueryItem(name: "a", value: "1")])))
        #expect(echo.args["a"] == ["1"])
        #expect(head.statusCode == 200)
        #expect(head.headerFields["Content-Type"]?.hasPrefix("application/json") == true)
        let data = try await client.send(Request<Data>("bytes/16"))
        #expect(data.count == 16)
    }

    @Test(arguments: TransportKind.configured)
    func errorsKeepTheHeadAndTheBody(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let client = APIClient(baseURL: server.baseURL, exchange: try exchange(transport))
        do {
            try await client.send(Request<Void>("status/404"))
            Issue.record("a 404 succeeded")
        } catch {
            #expect(error.statusCode == 404)
            #expect(error.head?.statusCode == 404)
            #expect(error.head?.httpURLResponse?.statusCode == 404)
            #expect(error.body != nil)
        }
    }

    /// URLSession's engine measures what a layer can see around FoundationNetworking, and
    /// leaves the rest nil rather than invent it.
    @Test(.enabled(if: TransportKind.configured.contains(.urlSession)))
    func urlSessionMeasuresTheHeadTheWholeAndTheBody() async throws {
        let server = try sharedServer()
        let (data, head) = try await exchange(.urlSession)(URLRequest(url: server.url("/delay/0.3")))
        let firstByte = try #require(head.metrics.firstByte)
        let total = try #require(head.metrics.total)
        #expect(firstByte >= .milliseconds(300))
        #expect(total >= firstByte)
        #expect(head.metrics.decodedBodyBytes == data.count)
        #expect(head.metrics.connect == nil)
        #expect(head.metrics.connectionReused == nil)
        #expect(head.metrics.remoteAddress == nil)
    }

    /// libcurl's counters through the layers: a new connection's phases, then its reuse, and
    /// one set of metrics per redirect hop.
    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func curlMeasuresEveryPhaseAndEveryHop() async throws {
        let server = try await TestServer.start()
        let transport = try CurlTransport()
        let (_, first) = try await transport.exchange(URLRequest(url: server.url("/delay/0.3")))
        let connect = try #require(first.metrics.connect)
        let firstByte = try #require(first.metrics.firstByte)
        #expect(connect > .zero)
        #expect(firstByte >= .milliseconds(300))
        #expect(try #require(first.metrics.total) >= firstByte)
        #expect(first.metrics.connectionReused == false)
        #expect(first.metrics.remoteAddress == "127.0.0.1:\(server.baseURL.port ?? 0)")
        let (_, second) = try await transport.exchange(URLRequest(url: server.url("/get")))
        #expect(second.metrics.connectionReused == true)
        let (_, redirected) = try await transport.exchange(URLRequest(url: server.url("/redirect/2")))
        #expect(redirected.metrics.redirects.count == 2)
        #expect(redirected.metrics.redirects.allSatisfy { $0.total != nil })
        await transport.shutdown()
        try await server.shutdown()
    }

    /// A user's own `Networking` still works everywhere, through the same dispatcher.
    @Test func aNetworkingDoubleStillDrivesTheClient() async throws {
        let url = URL(string: "http://127.0.0.1:1/")!
        let double: Networking = { request in
            let response = HTTPURLResponse(url: request.url ?? url, statusCode: 200, httpVersion: nil, headerFields: ["X-Double": "yes"])!
            return (Data("[1,2]".utf8), response)
        }
        let client = APIClient(baseURL: url, networking: double)
        let (numbers, head) = try await client.response(to: Request<[Int]>("numbers"))
        #expect(numbers == [1, 2])
        #expect(head.headerFields["x-double"] == "yes")
        let notHTTP: Networking = { request in
            (Data(), URLResponse(url: request.url ?? url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil))
        }
        await #expect {
            try await APIClient(baseURL: url, networking: notHTTP).send(Request<Void>("x"))
        } throws: { error in
            guard let error = error as? APIError, case .notHTTP = error.kind else { return false }
            return true
        }
    }
}
