import Courier
import Foundation
import Testing
@testable import ReadmeURLSession

/// The README's example points at a made-up API, so only the request it builds is checked.
@Suite struct ReadmeSnippetTests {
    @Test func reposRequestAsksForAHundredPerPage() throws {
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:1/")), networking: StubNetworking(body: "[]").networking)
        let request = try client.urlRequest(for: .repos(of: "apple"))
        #expect(request.url?.absoluteString == "http://127.0.0.1:1/users/apple/repos?per_page=100")
        #expect(request.httpMethod == "GET")
    }
}
