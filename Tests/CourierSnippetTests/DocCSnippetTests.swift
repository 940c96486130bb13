#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import DocCSnippets

/// Runs the DocC articles' examples: against stubs where they name a real API, against a test
/// server on 127.0.0.1 where they take a base URL. Never any other network.
@Suite struct DocCSnippetTests {
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

    @Test func configuredClientSendsThroughTheConfiguredTransport() async throws {
        let data = try await withTestServer { server in
            try await makeClient(baseURL: server.baseURL).send(Request<Data>("get"))
        }
        #expect(!data.isEmpty)
    }

    @Test func parityReportFindsNoDifferenceOnPlainRoutes() async throws {
        let differences = try await withTestServer { server in
            try await disagreements(on: [server.url("/get"), server.url("/status/404")])
        }
        #expect(differences.isEmpty)
    }
}
