#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierParity
import CourierTestServer
import Foundation
import Testing

@Suite struct ParityReportTests {
    @Test func reportsAgreementAndTheFirstDifferingField() async throws {
        let server = try await TestServer.start()
        let requests = [
            URLRequest(url: server.url("/get?a=1")),
            URLRequest(url: server.url("/status/404")),
            URLRequest(url: server.url("/redirect-to?url=\(server.url("/get").absoluteString)")),
        ]
        let results = try await parityReport(for: requests)
        try await server.shutdown()
        #expect(results.map(\.transportsAgree) == [true, true, true])
        #expect(results.allSatisfy { $0.firstDifference == nil })
        #expect(results.map(\.request.url) == requests.map(\.url))
    }

    @Test func comparesTheTransportsItIsGiven() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:1/x"))
        let urlSession: Networking = { request in try Self.stubResponse(request, header: "one") }
        let curl: Networking = { request in try Self.stubResponse(request, header: "two") }
        let results = await parityReport(for: [URLRequest(url: url)], urlSession: urlSession, curl: curl)
        #expect(results.first?.firstDifference == ParityDifference(field: .header("x-version"), urlSession: "one", curl: "two"))
    }

    private static func stubResponse(_ request: URLRequest, header: String) throws -> (Data, URLResponse) {
        let url = try #require(request.url)
        let response = try #require(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["X-Version": header]))
        return (Data(), response)
    }
}
