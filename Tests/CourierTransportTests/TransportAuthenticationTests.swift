#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// The authentication layer on both engines against `/bearer/{key}/{token}`, which answers 401
/// to any token but `{token}`: refreshed once for every request that saw the old credential,
/// before use when it expires, never sent to another origin, never in a message.
@Suite(.testServer) struct TransportAuthenticationTests {
    @Test(arguments: TransportKind.configured)
    func requestsRejectedTogetherCauseOneRefreshAndAllSucceed(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = UUID().uuidString
        let refreshes = RefreshCount()
        let authentication = Authentication(origin: server.url("/"), credential: .bearer("old")) { _ in
            refreshes.add()
            return .bearer("new")
        }
        let statuses = try await transport.withRetryingTransport(policies: Self.policies(authentication)) { stack in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await stack.exchange(URLRequest(url: server.url("/bearer/\(key)/new"))).1.statusCode }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        #expect(refreshes.value == 1)
        // Each request was answered 401 at most once.
        #expect((9...16).contains(server.visits(key)))
    }

    @Test(arguments: TransportKind.configured)
    func aStreamedCallIsAuthenticatedAndSentAgainAfterARefresh(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = UUID().uuidString
        let authentication = Authentication(origin: server.url("/"), credential: .bearer("old")) { _ in .bearer("new") }
        try await transport.withRetryingTransport(policies: Self.policies(authentication)) { stack in
            let (body, head) = try await stack.streaming(URLRequest(url: server.url("/bearer/\(key)/new")), nil)
            _ = try await body.collect(upTo: 1 << 20)
            #expect(head.statusCode == 200)
        }
        #expect(server.visits(key) == 2)
    }

    @Test(arguments: TransportKind.configured)
    func aCredentialAboutToExpireIsRefreshedBeforeItIsSent(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = UUID().uuidString
        let replaced = Locked<Credential?>(nil)
        let expiring = Credential.bearer("old", expiration: Date() + 5)
        let authentication = Authentication(origin: server.url("/"), credential: expiring, refreshMargin: 30) { old in
            replaced.withLock { $0 = old }
            return .bearer("new", expiration: Date() + 3600)
        }
        let (_, head) = try await transport.withRetryingTransport(policies: Self.policies(authentication)) { stack in
            try await stack.exchange(URLRequest(url: server.url("/bearer/\(key)/new")))
        }
        #expect(head.statusCode == 200)
        #expect(server.visits(key) == 1)
        #expect(replaced.withLock { $0 } == expiring)
    }

    @Test(arguments: TransportKind.configured)
    func aFailedRefreshIsOneTypedErrorThatNamesTheRequestAndNotTheCredential(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let key = UUID().uuidString
        let authentication = Authentication(origin: server.url("/"), credential: .bearer("s3cr3t-old")) { _ in
            throw RefreshRefused()
        }
        let url = server.url("/bearer/\(key)/new")
        do {
            _ = try await transport.withRetryingTransport(policies: Self.policies(authentication)) { stack in
                try await stack.exchange(URLRequest(url: url))
            }
            Issue.record("expected the refresh to fail the request")
        } catch let error as AuthenticationError {
            #expect(error.underlying is RefreshRefused)
            #expect(error.description == "refreshing the credential failed: the identity provider said no (GET \(url.absoluteString))")
            #expect(!"\(error)".contains("s3cr3t"))
        }
        // Sent once with the old credential; never again.
        #expect(server.visits(key) == 1)
    }

    @Test(arguments: TransportKind.configured)
    func theCredentialNeverReachesAnotherOriginAndItsRejectionRefreshesNothing(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let other = try await TestServer.start()
        let key = UUID().uuidString
        let refreshes = RefreshCount()
        let authentication = Authentication(origin: server.url("/"), credential: .bearer("s3cr3t")) { _ in
            refreshes.add()
            return .bearer("new")
        }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let target = other.url("/bearer/\(key)/s3cr3t").absoluteString.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        try await transport.withRetryingTransport(policies: Self.policies(authentication)) { stack in
            // Redirected to another origin, which rejects: its 401 is the answer.
            let (_, redirected) = try await stack.exchange(URLRequest(url: server.url("/redirect-to?url=\(target)")))
            #expect(redirected.statusCode == 401)
            #expect(other.lastRequest?.value(for: "Authorization") == nil)
            // Sent there directly: untouched.
            let (_, direct) = try await stack.exchange(URLRequest(url: other.url("/bearer/\(key)/s3cr3t")))
            #expect(direct.statusCode == 401)
            #expect(other.lastRequest?.value(for: "Authorization") == nil)
        }
        #expect(refreshes.value == 0)
        #expect(other.visits(key) == 2)
        try await other.shutdown()
    }

    private static func policies(_ authentication: Authentication) -> Policies {
        var policies = Policies()
        policies.callLayers = [authentication]
        return policies
    }
}

/// How many times a refresh ran.
private final class RefreshCount: Sendable {
    private let count = Locked(0)

    var value: Int { count.withLock { $0 } }

    func add() {
        count.withLock { $0 += 1 }
    }
}

private struct RefreshRefused: Error, CustomStringConvertible {
    var description: String { "the identity provider said no" }
}
