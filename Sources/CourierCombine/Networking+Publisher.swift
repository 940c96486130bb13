#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif
import Courier

/// ``/Courier/Networking`` in publisher form: a function from a request to a publisher of its
/// body and response.
///
/// Code written against Combine can depend on this function type alone, the way `async` code
/// depends on ``/Courier/Networking``, so tests inject a closure and production code injects
/// ``networkingPublisher(from:)`` over a real transport:
///
/// ```swift
/// struct FeedService {
///     let networking: NetworkingPublisher
///
///     func feed() -> AnyPublisher<Feed, any Error> {
///         networking(URLRequest(url: feedURL))
///             .tryMap { try JSONDecoder().decode(Feed.self, from: $0.data) }
///             .eraseToAnyPublisher()
///     }
/// }
/// let service = FeedService(networking: networkingPublisher(from: URLSessionTransport().networking))
/// ```
///
/// The articles write `.map(\.data).decode(type: Feed.self, decoder: JSONDecoder())`, which
/// needs `JSONDecoder` to be a `TopLevelDecoder`. It is one in Apple's Combine; with OpenCombine
/// on Linux it is not, unless you add OpenCombine's `OpenCombineFoundation` product. `tryMap`
/// and `decode(_:from:)` work with both.
public typealias NetworkingPublisher = (URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), any Error>

/// Returns a publisher that sends `request` through `networking` for each subscriber.
///
/// The request goes out when a subscriber first requests a value, not when this function is
/// called, and cancelling the subscription cancels the request's task (transports then throw
/// `URLError(.cancelled)` internally; nothing more is delivered). See ``TaskPublisher``.
public func publisher(
    for request: URLRequest,
    using networking: @escaping Networking
) -> AnyPublisher<(data: Data, response: URLResponse), any Error> {
    TaskPublisher { () async throws -> (data: Data, response: URLResponse) in
        let (data, response) = try await networking(request)
        return (data, response)
    }
    .eraseToAnyPublisher()
}

/// Adapts an `async` ``/Courier/Networking`` function into a ``NetworkingPublisher``, so the same
/// transport, decorators and test doubles serve both styles.
public func networkingPublisher(from networking: @escaping Networking) -> NetworkingPublisher {
    { request in publisher(for: request, using: networking) }
}
