#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// The redirect safety rules curl, Go and urllib3 each had to learn: credentials stay with
/// their origin, only http/https locations are followed, loops end.
@Suite(.timeLimit(.minutes(5))) struct TransportRedirectSafetyTests {
    private static let sensitive = [
        "Authorization": "Bearer secret",
        "Cookie": "session=1",
        "Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
        "X-Api-Key": "key",
    ]

    private static var markingXApiKey: Policies {
        var policies = Policies()
        policies.redirects.sensitiveHeaderNames = ["X-Api-Key"]
        return policies
    }

    private static func redirect(from server: TestServer, to url: URL) -> URL {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let target = url.absoluteString.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
        return server.url("/redirect-to?url=\(target)")
    }

    @Test(arguments: TransportKind.configured)
    func sensitiveHeadersAreDroppedOnceTheOriginChangesAndStayDropped(_ transport: TransportKind) async throws {
        let first = try await TestServer.start()
        let second = try await TestServer.start()
        // first → second → first → first/anything/last: three hops, two origins (ports).
        let hop3 = Self.redirect(from: first, to: first.url("/anything/last"))
        let hop2 = Self.redirect(from: second, to: hop3)
        let hop1 = Self.redirect(from: first, to: hop2)
        var request = URLRequest(url: hop1)
        request.allHTTPHeaderFields = Self.sensitive.merging(["X-Keep": "kept"]) { $1 }
        let (data, response) = try await transport.withIsolatedTransport(policies: Self.markingXApiKey) { networking in
            try await networking(request)
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(response.url == first.url("/anything/last"))
        let last = try echo(data)
        let onSecond = try #require(second.lastRequest)
        #expect(last.headerValues("X-Keep") == ["kept"])
        #expect(onSecond.value(for: "X-Keep") == "kept")
        for name in Self.sensitive.keys {
            #expect(onSecond.value(for: name) == nil, "\(name) on the second origin")
            #expect(last.headerValues(name).isEmpty, "\(name) back on the first origin")
        }
        try await first.shutdown()
        try await second.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func sameOriginRedirectsKeepCredentials(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        var request = URLRequest(url: server.url("/redirect/2"))
        request.allHTTPHeaderFields = Self.sensitive
        let (data, _) = try await transport.withIsolatedTransport(policies: Self.markingXApiKey) { networking in
            try await networking(request)
        }
        let last = try echo(data)
        for (name, value) in Self.sensitive {
            #expect(last.headerValues(name) == [value], "\(name)")
        }
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func fileLocationsAreNotFollowed(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        let url = Self.redirect(from: server, to: URL(fileURLWithPath: "/etc/passwd"))
        let result = await Result { try await transport.networking(URLRequest(url: url)) }
        // The 302 itself is the answer on both, as Darwin's URLSession gives for a scheme it
        // will not follow; neither reads the file.
        switch result {
        case .success(let (data, response)):
            #expect((response as? HTTPURLResponse)?.statusCode == 302)
            #expect(!String(decoding: data, as: UTF8.self).contains("root:"))
        case .failure(let error):
            Issue.record("\(transport): unexpected \(error)")
        }
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func redirectLoopsEndInTooManyRedirects(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        // The error and the count below are what a transport that followed the loop for ever
        // fails; the time limit stops it.
        await transport.expectURLError(.httpTooManyRedirects, "GET", "/redirect-loop", on: server)
        // Both stop at URLSession's limit of 20 redirects: the first request and 20 follows.
        #expect(server.requestCount == 21)
        try await server.shutdown()
    }
}
