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

// Publishers over the dispatcher for callers that build their own `URLRequest`s. Like the
// client's, they are cold, start on demand, cancel the request with the subscription, and fail
// with `APIError`.

extension Dispatcher {
    /// A publisher that sends `request` and emits the body and response of an acceptable status.
    public func publisher(
        for request: URLRequest
    ) -> AnyPublisher<(data: Data, response: HTTPURLResponse), APIError> {
        TaskPublisher { () async throws(APIError) -> (data: Data, response: HTTPURLResponse) in
            let (data, response) = try await dispatch(request)
            return (data, response)
        }
        .eraseToAnyPublisher()
    }

    /// A publisher that sends `request` and emits the body decoded as `type`.
    public func publisher<Response: Decodable & Sendable>(
        for request: URLRequest,
        as type: Response.Type = Response.self
    ) -> AnyPublisher<Response, APIError> {
        TaskPublisher { () async throws(APIError) -> Response in
            try await dispatch(request, as: type)
        }
        .eraseToAnyPublisher()
    }
}
