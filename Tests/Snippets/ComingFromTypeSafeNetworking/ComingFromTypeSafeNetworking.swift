import Courier
import Foundation

struct Repo: Decodable, Sendable {
    let id: Int
    let name: String
}

struct SearchResponse: Decodable, Sendable {
    let items: [Repo]
}

extension Request where Response == SearchResponse {
    static func search(matching query: String) -> Self {
        Request("search/repositories", method: .get([URLQueryItem(name: "q", value: query)]))
    }
}

struct GitHub: Sendable {
    let client: APIClient

    init(networking: @escaping Networking = URLSessionTransport().networking) {
        client = APIClient(baseURL: URL(string: "https://api.github.com/")!, networking: networking)
    }

    // URLSession.decode(_:) in the article.
    func repositories(matching query: String) async throws(APIError) -> [Repo] {
        let request: Request<SearchResponse> = .search(matching: query)
        return try await client.send(request).items
    }
}

// HTTPMethod, the article's HttpMethod, is Equatable as the article's is.
let searchesSwift = Request.search(matching: "Swift").method == .get([URLQueryItem(name: "q", value: "Swift")])
