#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends one HTTP request, its body produced as it goes out, and returns the response head as
/// soon as it arrives with the body to read as it comes.
///
/// The streaming counterpart of ``Networking``: same rules for errors, status codes and
/// cancellation, and the same ``Policies`` wrap it (see ``Policies/apply(to:)-(StreamingNetworking)``).
/// The `URLRequest`'s own `httpBody` is sent when `UploadBody` is `nil`.
public typealias StreamingNetworking = @Sendable (URLRequest, UploadBody?) async throws -> (ResponseBody, URLResponse)

/// A function that wraps a ``StreamingNetworking`` in a policy, as ``NetworkingLayer`` does for
/// ``Networking``.
public typealias StreamingNetworkingLayer = @Sendable (@escaping StreamingNetworking) -> StreamingNetworking

/// Wraps `networking` in `layers`, the first outermost.
public func layered(_ networking: @escaping StreamingNetworking, _ layers: [StreamingNetworkingLayer]) -> StreamingNetworking {
    layers.reversed().reduce(networking) { inner, layer in layer(inner) }
}
