#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `Request.timeoutInterval` is one request's idle timeout on both engines, whatever its value:
/// shorter than the policy against a server that never answers, and longer, 60 s included,
/// against one that answers after the policy's limit. No assertion depends on how fast the
/// machine is: every timeout expected is against a server that never answers, which can only
/// end in the timeout however late a timer fires; a request expected to outlast the policy
/// waits 2 s for its answer under a limit of 60 s or more.
@Suite(.testServer, .timeLimit(.minutes(5))) struct RequestTimeoutTests {
    private func withClient<T>(
        _ transport: TransportKind, idleTimeout: TimeInterval, _ body: (APIClient) async throws -> T
    ) async throws -> T {
        var policies = Policies()
        policies.idleTimeout = idleTimeout
        let baseURL = try sharedServer().baseURL
        return try await transport.withIsolatedHTTPTransport(policies: policies) { try await body(APIClient(baseURL: baseURL, transport: $0)) }
    }

    @Test(arguments: TransportKind.configured)
    func aShorterOwnTimeoutEndsTheRequestAndTheMessageNamesIt(_ transport: TransportKind) async throws {
        let error = try await withClient(transport, idleTimeout: TestRun.serverHoldSeconds) { client in
            await apiError { try await client.send(Request<Void>("never", timeoutInterval: 0.5)) }
        }
        #expect(error?.urlError?.code == .timedOut, "\(String(describing: error))")
        #expect(error?.urlError?.localizedDescription.contains("no data received or sent for 0.5 s") == true, "\(String(describing: error))")
    }

    /// An explicit 60 s is the request's own, not URLRequest's default standing in for the
    /// policy; a request without it times out at the policy's 1 s.
    @Test(arguments: TransportKind.configured)
    func anExplicitSixtySecondsOutlastsAShorterPolicy(_ transport: TransportKind) async throws {
        try await withClient(transport, idleTimeout: 1) { client in
            let data = try await client.send(Request<Data>("delay/2", timeoutInterval: 60))
            #expect(!data.isEmpty)
            let (body, head) = try await client.stream(Request<ResponseBody>("delay/2", timeoutInterval: 60))
            #expect(head.statusCode == 200)
            #expect(try await body.collect(upTo: 1 << 20).isEmpty == false)

            let error = await apiError { try await client.send(Request<Data>("never")) }
            #expect(error?.urlError?.code == .timedOut, "\(String(describing: error))")
            let message = error?.urlError?.localizedDescription ?? ""
            #expect(Self.namesTheOneSecondLimit(message), "\(message)")
        }
    }

    /// A `URLRequest` sent as it is cannot say that its 60 s was chosen: it waits the policy's
    /// limit, as one made with `URLRequest(url:)` does. Any other value is its own.
    @Test(arguments: TransportKind.configured)
    func aURLRequestsSixtySecondsIsTakenForTheDefault(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.idleTimeout = 1
        let server = try sharedServer()
        try await transport.withIsolatedHTTPTransport(policies: policies) { transport in
            var never = URLRequest(url: server.url("/never"))
            never.timeoutInterval = 60
            let error = await urlError { try await transport.data(for: never) }
            #expect(error?.code == .timedOut, "\(String(describing: error))")
            #expect(error.map { Self.namesTheOneSecondLimit($0.localizedDescription) } == true, "\(String(describing: error))")
            var request = URLRequest(url: server.url("/delay/2"))
            request.timeoutInterval = 61
            let (_, response) = try await transport.data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
        }
    }

    /// Whether a timeout's message shows the policy's 1 s applied: the idle clock's own words,
    /// or, when a busy machine made the connection itself take that long (the connect timeout
    /// is the idle one unless set), libcurl's "… after N milliseconds" with N under a minute.
    private static func namesTheOneSecondLimit(_ message: String) -> Bool {
        if message.contains("no data received or sent for 1 s") { return true }
        guard let range = message.range(of: #"after (\d+) milliseconds"#, options: .regularExpression) else { return false }
        let digits = message[range].filter(\.isNumber)
        return Int(digits).map { $0 < 60_000 } ?? false
    }

    private func apiError(_ call: () async throws -> some Any) async -> APIError? {
        await thrownError(call) as? APIError
    }

    private func urlError(_ call: () async throws -> some Any) async -> URLError? {
        await thrownError(call) as? URLError
    }

    private func thrownError(_ call: () async throws -> some Any) async -> (any Error)? {
        do {
            _ = try await call()
            return nil
        } catch {
            return error
        }
    }
}
