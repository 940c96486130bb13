#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Servers that break HTTP on purpose. Each fault gets the same `URLError` code on both
/// transports, with a description that says what happened, and no fault grows memory past the
/// body limit or hangs: the time limit ends a test whose transport never gives up.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportHostileServerTests {
    /// The code and description `path` fails with, sent through `networking`.
    private func failure(_ networking: Networking, _ url: URL, timeout: TimeInterval = TestRun.hangLimitSeconds) async -> URLError? {
        var request = URLRequest(url: url)
        request.timeoutInterval = timeout
        do {
            _ = try await networking(request)
            return nil
        } catch {
            return error as? URLError
        }
    }

    private static var smallLimit: Policies {
        var policies = Policies()
        policies.maximumResponseBytes = 8 << 20
        return policies
    }

    @Test(arguments: TransportKind.configured, ["/infinite", "/infinite/close-delimited"])
    func endlessBodiesStopAtTheLimit(_ transport: TransportKind, path: String) async throws {
        let server = try sharedServer()
        // The body never ends: a transport that ignored the limit would fail on memory or on
        // the time limit, never with this error.
        let error = try await transport.withIsolatedTransport(policies: Self.smallLimit) { networking in
            await failure(networking, server.url(path))
        }
        #expect(error?.code == .dataLengthExceedsMaximum)
        #expect(error?.localizedDescription.contains("exceeds the limit of 8388608 bytes") == true, "\(String(describing: error))")
    }

    /// Both engines decode while they count and stop at the limit; URLSession's, told to decode
    /// nothing, refuses an encoded response at its head.
    @Test(arguments: TransportKind.configured, ["gzip", "deflate", "br", "zstd"])
    func compressionBombsNeverReachTheCaller(_ transport: TransportKind, encoding: String) async throws {
        let server = try sharedServer()
        let url = server.url("/bomb/\(encoding)/64")
        let byDefault = try await transport.withIsolatedTransport(policies: Self.smallLimit) { networking in
            await failure(networking, url)
        }
        switch transport {
        case .urlSession:
            #expect(byDefault?.code == .dataLengthExceedsMaximum, "\(String(describing: byDefault))")
            let identityOnly = try await transport.withIsolatedTransport(policies: Self.smallLimit, urlSession: .init(contentDecoding: .identityOnly)) { networking in
                await failure(networking, url)
            }
            #expect(identityOnly?.code == .cannotDecodeContentData)
            #expect(identityOnly?.localizedDescription.contains("is \(encoding)-encoded") == true, "\(String(describing: identityOnly))")
        case .curl:
            // A coding the linked libcurl lacks is refused at once; one it has stops at the limit.
            let decodes = Curl.features.contentCodings.contains(encoding)
            #expect(byDefault?.code == (decodes ? .dataLengthExceedsMaximum : .cannotDecodeContentData))
        }
        if byDefault?.code == .dataLengthExceedsMaximum {
            #expect(byDefault?.localizedDescription.contains("exceeds the limit of 8388608 bytes") == true, "\(String(describing: byDefault))")
        }
    }

    /// An ordinary compressed answer is decoded by both engines by default, whether the request
    /// leaves `Accept-Encoding` to the engine or asks for gzip itself.
    @Test(arguments: TransportKind.configured, [nil, "gzip"] as [String?])
    func compressedAnswersAreDecodedByDefault(_ transport: TransportKind, acceptEncoding: String?) async throws {
        let server = try sharedServer()
        var request = URLRequest(url: server.url("/gzip"))
        request.setValue(acceptEncoding, forHTTPHeaderField: "Accept-Encoding")
        let (data, response) = try await transport.networking(request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let echo = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(echo?["path"] as? String == "/gzip", "\(String(decoding: data.prefix(200), as: UTF8.self))")
    }

    @Test(arguments: TransportKind.configured)
    func aDripFeedIsEndedByTheTotalDeadline(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var policies = Policies()
        policies.totalDeadline = 1
        let started = ContinuousClock.now
        // One byte every 100 ms for 300 s never trips the idle timeout; only the total deadline
        // ends it. A deadline that never fired would leave the call to outlast the time limit.
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            await failure(networking, server.url("/drip/3000?interval_ms=100"), timeout: TestRun.serverHoldSeconds)
        }
        #expect(error?.code == .timedOut)
        #expect(error?.localizedDescription.hasPrefix("timed out: the total deadline of 1 s passed") == true, "\(String(describing: error))")
        // It did not fire early: a lower bound a slow machine only makes easier to meet.
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    @Test(arguments: TransportKind.configured, [
        ("/content-length/conflicting", "Content-Length is given more than once with different values"),
        ("/header-value/bare-cr", "holds a bare CR"),
        ("/header-value/nul", "Nul byte in header"),
        ("/status-line/ssh-banner", "the reply is not HTTP/1.x or later"),
        ("/status-line/http09", "the reply is not HTTP/1.x or later"),
        ("/status-line/non-numeric", "the reply is not HTTP/1.x or later"),
    ])
    func malformedRepliesAreBadServerResponses(_ transport: TransportKind, reply: (path: String, words: String)) async throws {
        let (path, words) = reply
        let server = try sharedServer()
        let error = await failure(transport.networking, server.url(path))
        #expect(error?.code == .badServerResponse, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains(words) == true, "\(String(describing: error))")
        #expect(error?.localizedDescription.hasSuffix("(GET \(server.url(path).absoluteString))") == true)
    }

    @Test(arguments: TransportKind.configured)
    func aStatusLineWithTheHTTPNameMiscased(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let url = server.url("/status-line/lowercase-name")
        if transport.refusesAMiscasedHTTPName {
            let error = await failure(transport.networking, url)
            #expect(error?.code == .badServerResponse, "\(String(describing: error))")
            #expect(error?.localizedDescription.contains("no valid status line") == true, "\(String(describing: error))")
        } else {
            let (data, response) = try await transport.send(URLRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hello world")
        }
    }

    @Test(arguments: TransportKind.configured)
    func aStatusLineWithNoSpaceAfterTheCode(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let url = server.url("/status-line/no-reason")
        if transport.acceptsAStatusLineWithNoSpaceAfterTheCode {
            let (data, response) = try await transport.send(URLRequest(url: url))
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "hello world")
        } else {
            let error = await failure(transport.networking, url)
            #expect(error?.code == .badServerResponse, "\(String(describing: error))")
            let description = error?.localizedDescription ?? ""
            #expect(description.hasPrefix("the server's response is not valid HTTP: FoundationNetworking could not parse the status line"), "\(description)")
            #expect(description.contains("`HTTP/1.1 200`"), "\(description)")
            #expect(description.hasSuffix("(GET \(url.absoluteString))"), "\(description)")
        }
    }

    @Test(arguments: TransportKind.configured, ["/content-length/repeated", "/interim/100,103", "/status-line/empty-reason"])
    func repliesHTTPAllowsAreAccepted(_ transport: TransportKind, path: String) async throws {
        let (_, response) = try await transport.send("GET", path, on: try sharedServer())
        #expect(response.statusCode == 200)
    }

    @Test(arguments: TransportKind.configured, ["/long-header/200", "/long-location/100"])
    func oversizedHeaderLinesNameTheLimit(_ transport: TransportKind, path: String) async throws {
        let server = try sharedServer()
        let error = await failure(transport.networking, server.url(path))
        #expect(error?.code == .dataLengthExceedsMaximum, "\(String(describing: error))")
        #expect(error?.localizedDescription.contains("100 KiB") == true, "\(String(describing: error))")
    }

    @Test(arguments: TransportKind.configured)
    func aHeaderBlockOverTheConfiguredLimitNamesIt(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var policies = Policies()
        policies.maximumHeaderBytes = 8 << 10
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            await failure(networking, server.url("/many-headers/2000"))
        }
        #expect(error?.code == .dataLengthExceedsMaximum)
        #expect(error?.localizedDescription.contains("the response headers exceed the limit of 8192 bytes") == true, "\(String(describing: error))")
    }
}

/// Cookies through the shared layer: a `Set-Cookie` on a redirect reaches the next hop on both
/// transports when a store is configured, and nothing is kept when none is.
@Suite(.testServer) struct TransportCookieTests {
    @Test(arguments: TransportKind.configured)
    func aCookieSetOnARedirectIsSentOnTheNextHop(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        var policies = Policies()
        let store = CookieStore()
        policies.cookies = store
        let (data, _) = try await transport.withIsolatedTransport(policies: policies) { networking in
            try await networking(URLRequest(url: server.url("/cookies/set?session=abc&theme=dark")))
        }
        let received = try JSONDecoder().decode([String: [String: String]].self, from: data)
        #expect(received["cookies"] == ["session": "abc", "theme": "dark"])
        #expect(Set(store.cookies.map(\.name)) == ["session", "theme"])
    }

    @Test(arguments: TransportKind.configured)
    func withoutAStoreNoCookieIsKept(_ transport: TransportKind) async throws {
        let (data, _) = try await transport.send("GET", "/cookies/set?session=abc", on: try sharedServer())
        let received = try JSONDecoder().decode([String: [String: String]].self, from: data)
        #expect(received["cookies"] == [:])
    }
}
