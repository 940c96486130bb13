#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// What both engines check before sending, tested on the value alone: the same request is
/// refused in the same words whichever engine would have sent it.
@Suite struct RequestTargetTests {
    private func request(_ url: String?, method: String = "GET", body: Data? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url ?? "http://placeholder")!)
        if url == nil { request.url = nil }
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    private func check(_ request: URLRequest, sockets: Bool = true) throws -> RequestTarget {
        try request.checkedForSending(uploading: nil, transport: "TestTransport", sendsOverUnixSockets: sockets)
    }

    @Test func anHTTPURLGoesOverTCP() throws {
        let target = try check(request("http://127.0.0.1:8080/get"))
        #expect(target.url.absoluteString == "http://127.0.0.1:8080/get")
        #expect(target.unixSocket == nil)
    }

    @Test func aUnixSocketURLNamesItsSocketWhereTheEngineHasSockets() throws {
        let url = try #require(URL.unixSocket("/tmp/app.sock", path: "/v1/info"))
        let target = try check(URLRequest(url: url))
        #expect(target.unixSocket?.socketPath == "/tmp/app.sock")
        #expect(target.unixSocket?.url.absoluteString == "http://localhost/v1/info")
        #expect(throws: RequestError.self) { try check(URLRequest(url: url), sockets: false) }
    }

    @Test(arguments: [
        (nil, URLError.Code.badURL, "the request has no URL"),
        ("http:///path", .badURL, "the URL has no host"),
        ("ftp://example.com/file", .unsupportedURL, "only http, https, http+unix and https+unix URLs are sent"),
    ] as [(String?, URLError.Code, String)])
    func urlsNoEngineSendsAreRefusedAsURLSessionRefusesThem(url: String?, code: URLError.Code, message: String) {
        #expect {
            try check(request(url))
        } throws: { error in
            (error as? URLError)?.code == code && (error as? URLError)?.localizedDescription == message
        }
    }

    @Test func aGETWithABodyIsRefusedBeforeSending() {
        #expect {
            try check(request("http://127.0.0.1/", body: Data("x".utf8)))
        } throws: { error in
            (error as? URLError)?.code == .dataLengthExceedsMaximum
        }
        #expect(throws: Never.self) { try check(request("http://127.0.0.1/", method: "POST", body: Data("x".utf8))) }
    }

    @Test func aCancelledTaskSendsNothing() async {
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { try check(request("http://127.0.0.1/")) }
        }
        guard case .failure(let error) = await task.value else {
            Issue.record("a cancelled task's request was not refused")
            return
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func theIdleTimeoutIsTheRequestsOwnUnlessItKeepsTheDefault() {
        var policies = Policies()
        policies.idleTimeout = 5
        var request = request("http://127.0.0.1/")
        #expect(request.idleTimeout(under: policies) == 5, "URLRequest's default of 60 s leaves the policy's")
        request.timeoutInterval = 0
        #expect(request.idleTimeout(under: policies) == 5)
        request.timeoutInterval = 120
        #expect(request.idleTimeout(under: policies) == 120)
        request.timeoutInterval = .infinity
        #expect(request.idleTimeout(under: policies) == URLRequest.maximumTimeoutInterval)
        policies.idleTimeout = .nan
        request.timeoutInterval = 60
        #expect(request.idleTimeout(under: policies) == 60, "a policy that is no number falls back to 60 s")
    }

    /// A `Request`'s chosen interval is exact, 60 s included, and vouches for no other value: a
    /// request a layer sends inside the call with URLRequest's default still gets the policy's.
    @Test func aChosenIntervalIsExactAndVouchesOnlyForItself() async {
        var policies = Policies()
        policies.idleTimeout = 5
        let request = request("http://127.0.0.1/")
        #expect(await ChosenTimeoutInterval.during(60) { request.idleTimeout(under: policies) } == 60)
        #expect(await ChosenTimeoutInterval.during(30) { request.idleTimeout(under: policies) } == 5)
        #expect(await ChosenTimeoutInterval.during(nil) { request.idleTimeout(under: policies) } == 5)
        #expect(await ChosenTimeoutInterval.during(60) {
            await ChosenTimeoutInterval.during(nil) { request.idleTimeout(under: policies) }
        } == 5, "a call inside marks its own choice")
    }
}
