#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierParity
import CourierTestServer
import Foundation
import Testing

@Suite struct TypedParityReportTests {
    private struct Echo: Decodable {}

    @Test func resolvesTypedRequestsAgainstTheBaseURLAndAppliesThePolicies() async throws {
        let server = try await TestServer.start()
        var policies = Policies()
        policies.redirects.maximumRedirects = 0
        let results = try await parityReport(
            for: Request<Data>("get?a=1"), Request<Echo>("status/404"),
            Request<Data>("redirect-to?url=\(server.url("/get").absoluteString)"),
            baseURL: server.baseURL,
            policies: policies
        )
        try await server.shutdown()
        #expect(results.map(\.request.url?.path) == ["/get", "/status/404", "/redirect-to"])
        #expect(results.map(\.transportsAgree) == [true, true, true])
        // Followed by neither engine: the policies (no redirect) were applied to both.
        for outcome in [results[2].urlSession, results[2].curl] {
            guard case .response(let response) = outcome else {
                Issue.record("expected the redirect itself, got \(outcome)")
                continue
            }
            #expect((300..<400).contains(response.statusCode))
        }
    }
}
