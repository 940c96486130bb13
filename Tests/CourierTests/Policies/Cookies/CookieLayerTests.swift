#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Synchronization
import Testing

/// A `Networking` double that records each request and answers with the next scripted
/// status and headers, the last one repeating.
private final class ScriptedServer: Sendable {
    private let replies: [(status: Int, headers: [String: String])]
    private let received = Mutex<[URLRequest]>([])

    init(_ replies: [(status: Int, headers: [String: String])]) {
        self.replies = replies
    }

    var networking: Networking {
        { request in
            let count = self.received.withLock { received in
                received.append(request)
                return received.count
            }
            let reply = self.replies[min(count, self.replies.count) - 1]
            return (Data("body".utf8), try httpResponse(for: request, status: reply.status, headers: reply.headers))
        }
    }

    var requests: [URLRequest] {
        received.withLock { $0 }
    }

    func cookieHeader(ofRequest index: Int) -> String? {
        let requests = requests
        return requests.indices.contains(index) ? requests[index].value(forHTTPHeaderField: "Cookie") : nil
    }
}

@Suite struct CookieLayerTests {
    private let origin = testURL("http://home.example.org/start")

    @Test func aCookieSetByARedirectIsSentOnTheNextHop() async throws {
        let server = ScriptedServer([
            (302, ["Set-Cookie": "session=abc; Path=/", "Location": "/landing"]),
            (200, [:]),
        ])
        let store = CookieStore()
        let networking = storingCookies(in: store)(server.networking)
        let (_, first) = try await networking(URLRequest(url: origin))
        #expect((first as? HTTPURLResponse)?.statusCode == 302)
        #expect(server.cookieHeader(ofRequest: 0) == nil)
        // The redirect layer would make this request next; here the test plays its part.
        _ = try await networking(URLRequest(url: testURL("http://home.example.org/landing")))
        #expect(server.cookieHeader(ofRequest: 1) == "session=abc")
    }

    @Test func eachHopGetsTheCookiesOfItsOwnURL() async throws {
        let server = ScriptedServer([(302, ["Set-Cookie": "a=1"]), (200, [:])])
        let networking = layered(server.networking, [storingCookies(in: CookieStore())])
        _ = try await networking(URLRequest(url: origin))
        _ = try await networking(URLRequest(url: testURL("http://other.example.org/")))
        _ = try await networking(URLRequest(url: testURL("http://home.example.org/again")))
        #expect(server.cookieHeader(ofRequest: 1) == nil)
        #expect(server.cookieHeader(ofRequest: 2) == "a=1")
    }

    @Test func theStoresCookiesFollowACookieHeaderTheRequestAlreadyHas() async throws {
        let store = CookieStore()
        store.store(setCookieFields: ["stored=1"], from: origin)
        let server = ScriptedServer([(200, [:])])
        let networking = storingCookies(in: store)(server.networking)
        var request = URLRequest(url: origin)
        request.setValue("mine=0", forHTTPHeaderField: "cookie")
        _ = try await networking(request)
        let sent = try #require(server.requests.first)
        #expect(sent.value(forHTTPHeaderField: "Cookie") == "mine=0; stored=1")
        #expect(sent.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "cookie" }.count == 1)
    }

    @Test func aRequestWithNoStoredCookiesIsSentUnchanged() async throws {
        let server = ScriptedServer([(200, [:])])
        let networking = storingCookies(in: CookieStore())(server.networking)
        var request = URLRequest(url: origin)
        request.setValue("mine=0", forHTTPHeaderField: "Cookie")
        request.setValue("x", forHTTPHeaderField: "X-Other")
        _ = try await networking(request)
        #expect(server.requests.first == request)
    }

    @Test func aRequestThatOptsOutOfCookieHandlingNeitherSendsNorStores() async throws {
        let store = CookieStore()
        store.store(setCookieFields: ["stored=1"], from: origin)
        let server = ScriptedServer([(200, ["Set-Cookie": "new=1"])])
        var request = URLRequest(url: origin)
        request.httpShouldHandleCookies = false
        _ = try await storingCookies(in: store)(server.networking)(request)
        #expect(server.cookieHeader(ofRequest: 0) == nil)
        #expect(store.cookies.map(\.name) == ["stored"])
    }

    @Test func storesEveryCookieOfAJoinedSetCookieField() async throws {
        // How FoundationNetworking and CurlTransport hand over two Set-Cookie fields.
        let joined = "a=1; Expires=Wed, 21 Oct 2099 07:28:00 GMT; Path=/, b=2; Max-Age=60, c=3"
        let server = ScriptedServer([(200, ["Set-Cookie": joined])])
        let store = CookieStore()
        _ = try await storingCookies(in: store)(server.networking)(URLRequest(url: origin))
        #expect(store.cookies.map(\.name) == ["a", "b", "c"])
        #expect(store.cookies.first?.expires == utc(2099, 10, 21, 7, 28, 0))
    }

    @Test func storesCookiesOfErrorResponsesToo() async throws {
        let server = ScriptedServer([(500, ["Set-Cookie": "after=failure"])])
        let store = CookieStore()
        let (data, response) = try await storingCookies(in: store)(server.networking)(URLRequest(url: origin))
        #expect(data == Data("body".utf8))
        #expect((response as? HTTPURLResponse)?.statusCode == 500)
        #expect(store.cookies.map(\.name) == ["after"])
    }

    @Test func attributesCookiesToTheResponseURL() async throws {
        // A transport that followed a redirect itself reports the final URL on the response.
        let store = CookieStore()
        let networking: Networking = { _ in
            let response = HTTPURLResponse(url: testURL("http://final.example/"), statusCode: 200,
                                           httpVersion: "HTTP/1.1", headerFields: ["Set-Cookie": "f=1"])
            return (Data(), try #require(response))
        }
        _ = try await storingCookies(in: store)(networking)(URLRequest(url: origin))
        #expect(store.cookies.first?.domain == "final.example")
    }

    @Test func aNonHTTPResponsePassesThroughAndStoresNothing() async throws {
        let store = CookieStore()
        let networking: Networking = { request in
            (Data("raw".utf8), URLResponse(url: request.url ?? testURL("file:///"), mimeType: nil, expectedContentLength: 3, textEncodingName: nil))
        }
        let (data, response) = try await storingCookies(in: store)(networking)(URLRequest(url: origin))
        #expect(data == Data("raw".utf8))
        #expect(!(response is HTTPURLResponse))
        #expect(store.cookies.isEmpty)
    }

    @Test func aFailureIsRethrownAndStoresNothing() async {
        let store = CookieStore()
        let networking: Networking = { _ in throw URLError(.timedOut) }
        await #expect(throws: URLError(.timedOut)) {
            _ = try await storingCookies(in: store)(networking)(URLRequest(url: origin))
        }
        #expect(store.cookies.isEmpty)
    }

    @Test func secureCookiesStayOffPlainHTTPHops() async throws {
        let server = ScriptedServer([(302, ["Set-Cookie": "s=1; Secure, p=1"]), (200, [:])])
        let networking = storingCookies(in: CookieStore())(server.networking)
        _ = try await networking(URLRequest(url: testURL("https://home.example.org/")))
        _ = try await networking(URLRequest(url: testURL("http://home.example.org/")))
        #expect(server.cookieHeader(ofRequest: 1) == "p=1")
    }

    // MARK: Splitting joined Set-Cookie values

    @Test(arguments: [
        ("a=1", ["a=1"]),
        ("a=1, b=2", ["a=1", "b=2"]),
        ("a=1,b=2", ["a=1", "b=2"]),
        ("a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", ["a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT"]),
        ("a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT, b=2; Expires=Thu, 22 Oct 2015 07:28:00 GMT",
         ["a=1; Expires=Wed, 21 Oct 2015 07:28:00 GMT", "b=2; Expires=Thu, 22 Oct 2015 07:28:00 GMT"]),
        ("a=1; Path=/, b=2", ["a=1; Path=/", "b=2"]),
        ("a=x,y; Path=/", ["a=x,y; Path=/"]),           // a comma inside a value
        ("a=x, y", ["a=x, y"]),                         // not followed by token=
        ("a=1, b c=2", ["a=1, b c=2"]),                 // "b c" is no token
        ("a=1,  \tb =2", ["a=1", "b =2"]),              // whitespace around the name
        ("a=1, =2", ["a=1, =2"]),                       // an empty name is no token
        ("a=1, , b=2", ["a=1,", "b=2"]),
        ("a=1, b=2, c=3", ["a=1", "b=2", "c=3"]),
        ("", []),
        (" , ", [","]),
    ])
    func splitsOnlyWhereANewCookieStarts(joined: String, fields: [String]) {
        #expect(setCookieFieldValues(splittingJoined: joined) == fields)
    }
}
