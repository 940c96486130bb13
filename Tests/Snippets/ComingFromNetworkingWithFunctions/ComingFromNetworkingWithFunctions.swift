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

// The article's tokenRequestModifier is bearerToken; compose puts it in front of the transport.
func authorizedFeedService(token: String, feedURL: URL, networking: @escaping Networking) -> FeedService {
    let authorizedNetworking = compose(bearerToken(token), networking)
    return FeedService(networking: authorizedNetworking, feedURL: feedURL)
}

let liveFeedService = authorizedFeedService(
    token: ProcessInfo.processInfo.environment["FEED_TOKEN"] ?? "",
    feedURL: URL(string: "https://example.com/feed.json")!,
    networking: URLSessionTransport().networking
)
let mockedFeedService = FeedService(
    networking: mockNetworking(data: Data(#"{"items": ["hello"]}"#.utf8)),
    feedURL: URL(string: "https://example.com/feed.json")!
)
