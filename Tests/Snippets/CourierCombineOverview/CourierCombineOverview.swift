#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCombine
import Foundation
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

struct Post: Decodable, Sendable {
    let id: Int
    let title: String
}

struct PostService {
    let client: APIClient

    // Emits the decoded posts, or fails with the client's typed APIError.
    func posts() -> AnyPublisher<[Post], APIError> {
        client.publisher(for: Request<[Post]>("posts"))
    }

    // Networking in publisher form, decoded with tryMap: JSONDecoder is a TopLevelDecoder
    // for .decode(type:decoder:) only with Apple's Combine or OpenCombineFoundation.
    func post(id: Int, using networking: @escaping NetworkingPublisher) -> AnyPublisher<Post, any Error> {
        networking(URLRequest(url: client.baseURL.appending(path: "posts/\(id)")))
            .tryMap { try JSONDecoder().decode(Post.self, from: $0.data) }
            .eraseToAnyPublisher()
    }

    // Combine declares a Future too: here CourierFuture (or Courier.Future) is Courier's.
    func latestPost() -> CourierFuture<Post> {
        CourierFuture { try await client.send(Request<Post>("posts/latest")) }
    }

    func latestPostPublisher() -> AnyPublisher<Post, any Error> {
        latestPost().publisher
    }
}
