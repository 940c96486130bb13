#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlRequestPlan: what goes on the wire")
struct CurlRequestPlanTests {
    private func plan(
        _ method: String, body: String? = nil, headers: [String: String] = [:], timeout: TimeInterval = 60,
        upload: RequestBody? = nil
    ) -> CurlRequestPlan {
        let url = URL(string: "http://127.0.0.1/x")!
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.timeoutInterval = timeout
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return CurlRequestPlan(request: request, url: url, upload: upload, configuration: .init())
    }

    @Test func methodsMapToShapes() {
        #expect(plan("GET").shape == .withoutBody(customMethod: nil))
        #expect(plan("HEAD").shape == .head)
        #expect(plan("POST", body: "a").shape == .withBody(customMethod: nil))
        #expect(plan("DELETE").shape == .withBody(customMethod: "DELETE"))
        #expect(plan("PURGE", body: "a").shape == .withBody(customMethod: "PURGE"))
    }

    @Test func urlSessionDefaultsAreAddedUnlessTheRequestSetsThem() {
        let lines = plan("GET").headerLines
        #expect(lines.contains("Connection: keep-alive"))
        #expect(lines.contains("User-Agent: \(DefaultUserAgent.value)"))
        // libcurl adds neither header to a GET, so there is nothing to suppress.
        #expect(!lines.contains("Expect:"))
        #expect(!lines.contains("Content-Type:"))
        #expect(!plan("HEAD").headerLines.contains("Expect:"))
        #expect(plan("DELETE").headerLines.contains("Expect:"))
        #expect(plan("DELETE").headerLines.contains("Content-Type:"))
        let custom = plan("GET", headers: ["user-agent": "mine", "X-Empty": ""]).headerLines
        #expect(custom.filter { $0.lowercased().hasPrefix("user-agent:") } == ["User-Agent: mine"])
        #expect(custom.contains("X-Empty;"))
    }

    @Test func onlyANonEmptyPostKeepsLibcurlsFormContentType() {
        #expect(!plan("POST", body: "a").headerLines.contains("Content-Type:"))
        #expect(plan("PUT", body: "a").headerLines.contains("Content-Type:"))
        #expect(plan("POST", body: "a", headers: ["Content-Type": "application/json"]).headerLines.contains("Content-Type: application/json"))
    }

    /// FoundationNetworking labels a POST's own body stream a form, even an empty one, as it
    /// labels a non-empty `httpBody`.
    @Test func aPostsOwnBodyStreamKeepsTheFormContentType() {
        let url = URL(string: "http://127.0.0.1/x")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: Data())
        #expect(!CurlRequestPlan(request: request, url: url, configuration: .init()).headerLines.contains("Content-Type:"))
    }

    /// An upload is not a form: URLSessionTransport sends it through an upload task, which
    /// FoundationNetworking never labels, and curl's `-T` sends no type. It replaces the
    /// request's own body, which would have been labelled.
    @Test(arguments: [
        RequestBody.data(Data("a".utf8)), RequestBody(source: .file(URL(fileURLWithPath: "/courier/a")), length: 1),
        .stream(AsyncStream<Data> { $0.finish() }), .stream(AsyncStream<Data> { $0.finish() }, length: 0),
    ])
    func aPostOfAnUploadLosesTheFormContentType(_ upload: RequestBody) {
        #expect(plan("POST", upload: upload).headerLines.contains("Content-Type:"))
        #expect(plan("POST", body: "own", upload: upload).headerLines.contains("Content-Type:"))
        let named = plan("POST", headers: ["Content-Type": "application/json"], upload: upload).headerLines
        #expect(named.contains("Content-Type: application/json"))
        #expect(!named.contains("Content-Type:"))
    }

    @Test func timeoutIntervalIsAnIdleTimeoutInWholeSeconds() {
        #expect(plan("GET", timeout: 0.2).idleTimeoutSeconds == 1)
        #expect(plan("GET", timeout: 2.5).idleTimeoutSeconds == 3)
        #expect(plan("GET", timeout: 2.5).connectTimeoutMilliseconds == 2500)
    }

    /// What FoundationNetworking traps on, clamped to libcurl's longest millisecond timeout.
    @Test(arguments: [1e300, .infinity] as [TimeInterval])
    func timeoutsBeyondTheLongestAreClamped(_ interval: TimeInterval) {
        let longest = plan("GET", timeout: interval)
        #expect(longest.idleTimeout == .milliseconds(Int(Int32.max)))
        #expect(longest.idleTimeoutSeconds == 2_147_484)
        // No connect timeout of its own: connecting is bounded by the idle timeout alone.
        #expect(longest.connectTimeoutMilliseconds == Int(Int32.max))
    }

    @Test func zeroMeansTheDefaultSixtySeconds() {
        #expect(plan("GET", timeout: 0).idleTimeout == .seconds(60))
    }

    @Test(arguments: [0, -1, .nan] as [TimeInterval])
    func anUnusableConnectTimeoutLeavesTheRequestsTimeout(_ connect: TimeInterval) throws {
        var configuration = CurlTransport.Configuration()
        configuration.policies.connectTimeout = connect
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        var request = URLRequest(url: url)
        request.timeoutInterval = 5
        let plan = CurlRequestPlan(request: request, url: url, configuration: configuration)
        #expect(plan.connectTimeoutMilliseconds == 5_000)
    }
}
