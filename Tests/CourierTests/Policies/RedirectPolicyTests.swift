#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

@Suite("RedirectPolicy: RFC 9110 and Fetch method rules, and the safety rules")
struct RedirectPolicyTests {
    private let policy = RedirectPolicy()

    private func request(_ url: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    private func failure(_ decision: RedirectPolicy.Decision) -> URLError.Code? {
        decision.failureCode
    }

    private func next(_ decision: RedirectPolicy.Decision) -> URLRequest? {
        if case .follow(let request) = decision { return request }
        return nil
    }

    /// A server must not send a client to a local socket; a request already on a socket may
    /// move along it, and only along it.
    @Test func aUnixSocketIsFollowedOnlyFromTheSameSocket() throws {
        let socket = "http+unix://%2Ftmp%2Fa.sock"
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 302, location: "\(socket)/x", redirectsSoFar: 0) == .deliver)
        let along = try #require(next(policy.decision(after: request("\(socket)/a"), statusCode: 302, location: "/b", redirectsSoFar: 0)))
        #expect(along.url?.absoluteString == "\(socket)/b")
        #expect(policy.decision(after: request("\(socket)/a"), statusCode: 302, location: "http+unix://%2Ftmp%2Fb.sock/", redirectsSoFar: 0) == .deliver)
        #expect(policy.decision(after: request("\(socket)/a"), statusCode: 302, location: "https+unix://%2Ftmp%2Fa.sock/", redirectsSoFar: 0) == .deliver)
        let out = try #require(next(policy.decision(after: request("\(socket)/a"), statusCode: 302, location: "http://a.test/", redirectsSoFar: 0)))
        #expect(out.url?.absoluteString == "http://a.test/")
    }

    @Test func seeOtherTurnsPostIntoGetWithoutBody() throws {
        let original = request("http://a.test/x", method: "POST", body: "b", headers: ["Content-Type": "text/plain"])
        let followed = try #require(next(policy.decision(after: original, statusCode: 303, location: "/y", redirectsSoFar: 0)))
        #expect(followed.httpMethod == "GET")
        #expect(followed.httpBody == nil)
        #expect(followed.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(followed.url?.absoluteString == "http://a.test/y")
    }

    @Test(arguments: [301, 302])
    func movedAndFoundTurnOnlyPostIntoGet(status: Int) throws {
        let post = try #require(next(policy.decision(after: request("http://a.test/", method: "POST", body: "b"), statusCode: status, location: "/p", redirectsSoFar: 0)))
        #expect(post.httpMethod == "GET")
        let put = try #require(next(policy.decision(after: request("http://a.test/", method: "PUT", body: "b"), statusCode: status, location: "/p", redirectsSoFar: 0)))
        #expect(put.httpMethod == "PUT")
        #expect(put.httpBody == Data("b".utf8))
    }

    @Test(arguments: [307, 308])
    func temporaryAndPermanentKeepMethodAndBody(status: Int) throws {
        let followed = try #require(next(policy.decision(after: request("http://a.test/", method: "POST", body: "b"), statusCode: status, location: "/q", redirectsSoFar: 0)))
        #expect(followed.httpMethod == "POST")
        #expect(followed.httpBody == Data("b".utf8))
    }

    @Test func crossOriginDropsCredentialsAndConfiguredHeaders() throws {
        let policy = RedirectPolicy(sensitiveHeaderNames: ["X-Api-Key"])
        let original = request("http://a.test/", headers: ["Authorization": "Bearer t", "Cookie": "c=1", "x-api-key": "k", "Accept": "x"])
        let sameOrigin = try #require(next(policy.decision(after: original, statusCode: 302, location: "http://a.test:80/b", redirectsSoFar: 0)))
        #expect(sameOrigin.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        let otherPort = try #require(next(policy.decision(after: original, statusCode: 302, location: "http://a.test:8080/b", redirectsSoFar: 0)))
        #expect(otherPort.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(otherPort.value(forHTTPHeaderField: "Cookie") == nil)
        #expect(otherPort.value(forHTTPHeaderField: "X-Api-Key") == nil)
        #expect(otherPort.value(forHTTPHeaderField: "Accept") == "x")
    }

    @Test func downgradeIsRefusedAndOtherSchemesAreNotFollowed() {
        #expect(failure(policy.decision(after: request("https://a.test/"), statusCode: 302, location: "http://a.test/", redirectsSoFar: 0))
            == .appTransportSecurityRequiresSecureConnection)
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 302, location: "file:///etc/passwd", redirectsSoFar: 0) == .deliver)
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 302, location: "ftp://a.test/", redirectsSoFar: 0) == .deliver)
    }

    @Test func theLimitEndsTheChain() {
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 302, location: "/", redirectsSoFar: 20).failureCode == .httpTooManyRedirects)
        #expect(next(policy.decision(after: request("http://a.test/"), statusCode: 302, location: "/", redirectsSoFar: 19)) != nil)
    }

    @Test func nonRedirectsAndMissingLocationsAreDelivered() {
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 200, location: "/x", redirectsSoFar: 0) == .deliver)
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 302, location: nil, redirectsSoFar: 0) == .deliver)
        #expect(policy.decision(after: request("http://a.test/"), statusCode: 304, location: "/x", redirectsSoFar: 0) == .deliver)
    }

    @Test(arguments: [301, 302, 303])
    func aMethodChangedToGetDropsEveryBodyHeader(status: Int) throws {
        let headers = [
            "Content-Type": "text/plain", "Content-Length": "1", "Content-Encoding": "gzip",
            "Content-Language": "en", "Content-Location": "/x", "Accept": "x",
        ]
        let original = request("http://a.test/", method: "POST", body: "b", headers: headers)
        let followed = try #require(next(policy.decision(after: original, statusCode: status, location: "/g", redirectsSoFar: 0)))
        #expect(followed.httpMethod == "GET")
        #expect(Set((followed.allHTTPHeaderFields ?? [:]).keys) == ["Accept"])
    }

    @Test func seeOtherKeepsHead() throws {
        let followed = try #require(next(policy.decision(after: request("http://a.test/", method: "HEAD"), statusCode: 303, location: "/h", redirectsSoFar: 0)))
        #expect(followed.httpMethod == "HEAD")
    }

    @Test func aStreamBodyCannotBeSentTwice() {
        var original = request("http://a.test/", method: "POST")
        original.httpBodyStream = InputStream(data: Data("b".utf8))
        #expect(failure(policy.decision(after: original, statusCode: 307, location: "/s", redirectsSoFar: 0)) == .requestBodyStreamExhausted)
    }

    @Test func aZeroLimitDeliversTheRedirectAndTheLimitIsNamedWhenPassed() {
        #expect(RedirectPolicy(maximumRedirects: 0).decision(after: request("http://a.test/"), statusCode: 302, location: "/", redirectsSoFar: 0) == .deliver)
        guard case .fail(_, let message) = RedirectPolicy(maximumRedirects: 3).decision(after: request("http://a.test/"), statusCode: 302, location: "/", redirectsSoFar: 3) else {
            Issue.record("expected a failure")
            return
        }
        #expect(message == "stopped after 3 redirects (the limit)")
    }

    @Test func aDowngradeIsFollowedWhenAllowed() throws {
        let policy = RedirectPolicy(allowsInsecureRedirects: true)
        let followed = try #require(next(policy.decision(after: request("https://a.test/", headers: ["Authorization": "t"]), statusCode: 302, location: "http://a.test/", redirectsSoFar: 0)))
        #expect(followed.url?.absoluteString == "http://a.test/")
        // Another scheme is another origin: the credential stays behind.
        #expect(followed.value(forHTTPHeaderField: "Authorization") == nil)
    }

    @Test func sensitiveNamesCompareWithoutCase() {
        #expect(RedirectPolicy(sensitiveHeaderNames: ["X-Key"]) == RedirectPolicy(sensitiveHeaderNames: ["x-key"]))
        #expect(RedirectPolicy(sensitiveHeaderNames: ["X-Key"]) != RedirectPolicy())
    }
}


extension RedirectPolicy.Decision {
    var failureCode: URLError.Code? {
        if case .fail(let code, _) = self { return code }
        return nil
    }
}
