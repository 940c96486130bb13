#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct Feed: Decodable, Sendable {
    let items: [String]
}

struct FeedService: Sendable {
    let networking: Networking
    let feedURL: URL

    func fetchFeed() async throws -> Feed {
        let (data, _) = try await networking(URLRequest(url: feedURL))
        return try JSONDecoder().decode(Feed.self, from: data)
    }
}

// A mock is a closure of the same type.
func mockNetworking(data: Data = Data(), statusCode: Int = 200) -> Networking {
    { request in
        guard let url = request.url,
              let response = HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: nil, headerFields: nil)
        else { throw URLError(.badURL) }
        return (data, response)
    }
}

// The article's tokenRequestModifier is a credential of the transport's Authentication layer.
func authorizedNetworking(token: String, origin: URL) -> Networking {
    var policies = Policies()
    policies.callLayers = [Authentication(origin: origin, credential: .bearer(token))]
    return URLSessionTransport(configuration: .init(policies: policies)).networking
}

let feedURL = URL(string: "https://example.com/feed.json")!
let liveFeedService = FeedService(
    networking: authorizedNetworking(token: ProcessInfo.processInfo.environment["FEED_TOKEN"] ?? "", origin: feedURL),
    feedURL: feedURL
)
let mockedFeedService = FeedService(
    networking: mockNetworking(data: Data(#"{"items": ["hello"]}"#.utf8)),
    feedURL: URL(string: "https://example.com/feed.json")!
)
