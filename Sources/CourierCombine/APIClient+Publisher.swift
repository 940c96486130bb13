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

// The Combine flavour of the client. Each publisher is cold: it sends its request once per
// subscription, when demand arrives, and cancelling the subscription cancels the request.
// Failures keep the client's typed `APIError` rather than widening to `any Error`.

extension APIClient {
    /// A publisher that sends `request` and emits the decoded `Response`.
    ///
    /// ```swift
    /// let subscription = client.publisher(for: .repos(of: "apple"))
    ///     .sink { completion in
    ///         if case .failure(let error) = completion { print(error.kind) }
    ///     } receiveValue: { repos in
    ///         print(repos.map(\.name))
    ///     }
    /// ```
    ///
    /// Values arrive on a thread of Swift's global concurrent executor; add `receive(on:)` with
    /// your scheduler to move them (on Linux, OpenCombine's schedulers for Dispatch come from
    /// its `OpenCombineDispatch` product).
    public func publisher<Response: Decodable & Sendable>(
        for request: Request<Response>
    ) -> AnyPublisher<Response, APIError> {
        TaskPublisher { () async throws(APIError) -> Response in
            try await send(request)
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `request` and emits the raw body bytes of a successful response.
    public func publisher(for request: Request<Data>) -> AnyPublisher<Data, APIError> {
        TaskPublisher { () async throws(APIError) -> Data in
            try await send(request)
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `request` and emits `()` once a successful response arrived.
    public func publisher(for request: Request<Void>) -> AnyPublisher<Void, APIError> {
        TaskPublisher { () async throws(APIError) in
            try await send(request)
        }
        .eraseToAnyPublisher()
    }
}
