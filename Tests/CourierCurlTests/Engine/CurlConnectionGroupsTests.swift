#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

@Suite("CurlConnectionGroups: one group text per origin")
struct CurlConnectionGroupsTests {
    private func plan(_ text: String, socket: String? = nil) throws -> CurlRequestPlan {
        let url = try #require(URL(string: text))
        var plan = CurlRequestPlan(request: URLRequest(url: url), url: url, configuration: .init())
        plan.unixSocketPath = socket
        return plan
    }

    @Test func anOriginKeepsTheGroupItsRequestsWouldWrite() throws {
        let groups = CurlConnectionGroups(capacity: 4)
        for text in ["http://127.0.0.1:8080/a", "http://127.0.0.1:8080/b?c=d", "https://127.0.0.1:8080/a", "http://127.0.0.1/a"] {
            let plan = try plan(text)
            #expect(groups.group(of: plan) == CurlTransfer.connectionGroup(of: plan))
        }
        #expect(groups.count == 3)
        let overSocket = try plan("http://127.0.0.1:8080/a", socket: "/tmp/courier.sock")
        #expect(groups.group(of: overSocket) == CurlTransfer.connectionGroup(of: overSocket))
        #expect(groups.group(of: overSocket) != groups.group(of: try plan("http://127.0.0.1:8080/a")))
        #expect(groups.count == 4)
    }

    @Test func originsBeyondTheCapacityAreWrittenForTheirRequestAlone() throws {
        let groups = CurlConnectionGroups(capacity: 1)
        _ = groups.group(of: try plan("http://a.example/"))
        let other = try plan("http://b.example/")
        #expect(groups.group(of: other) == CurlTransfer.connectionGroup(of: other))
        #expect(groups.count == 1)
    }
}
