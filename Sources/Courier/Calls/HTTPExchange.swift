#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One HTTP exchange as Courier's engines answer it: a request in, the body and a
/// ``ResponseHead`` out, with no Foundation response built.
///
/// Every transport answers through one, with its policies over it; ``APIClient`` and
/// ``Dispatcher`` run on it. ``Networking`` stays the type to compose, swap
/// and double in tests.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let (data, head) = try await transport.exchange(URLRequest(url: URL(string: "https://example.com/")!))
/// print(head.statusCode, head.httpVersion, head.metrics.total ?? .zero, data.count)
/// ```
package typealias HTTPExchange = @Sendable (URLRequest) async throws -> (Data, ResponseHead)

/// `exchange` as a ``Networking`` value: its head becomes an `HTTPURLResponse`, built once per
/// answer.
package func networking(_ exchange: @escaping HTTPExchange) -> Networking {
    { request in
        let (data, head) = try await exchange(request)
        return (data, head.urlResponse)
    }
}

/// `networking` as an ``HTTPExchange``: each `HTTPURLResponse` is wrapped, not copied, and a
/// response that is not HTTP fails with `NotHTTPResponse`.
package func exchange(_ networking: @escaping Networking) -> HTTPExchange {
    { request in
        let (data, response) = try await networking(request)
        guard let head = ResponseHead(response) else { throw NotHTTPResponse(response: response, body: data) }
        return (data, head)
    }
}

/// A ``Networking`` answered with a response that is not HTTP, where an ``HTTPExchange`` was
/// asked for.
package struct NotHTTPResponse: Error, @unchecked Sendable {
    // @unchecked: URLResponse is immutable once built, but not declared Sendable everywhere.
    /// The response as it came.
    package let response: URLResponse
    /// Its body.
    package let body: Data
}

extension Policies {
    /// `engine` with these policies' layers over it, as ``apply(to:)-(Networking)`` stacks them
    /// over a ``Networking``.
    package func apply(to engine: @escaping HTTPExchange) -> HTTPExchange {
        let layered: Exchange<Data, ResponseHead> = layered(exchange: { request, _ in try await engine(request) }, exchangeLayers())
        return { request in try await layered(request, nil) }
    }
}
