#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends one HTTP request, its body produced as it goes out, and returns the response head as
/// soon as it arrives with the body to read as it comes.
///
/// The streaming counterpart of ``Networking``: same rules for errors, status codes and
/// cancellation, the same Courier ``ResponseHead`` (no Foundation response is built), and the
/// same ``Policies`` wrap it in a transport's ``HTTPTransport/streaming``. The `URLRequest`'s
/// own `httpBody` is sent when `RequestBody` is `nil`.
///
/// The head comes before the body, so its ``ResponseHead/metrics`` hold what was measured up to
/// the head: the phases up to ``ExchangeMetrics/firstByte``. What is known only once the body
/// has ended (``ExchangeMetrics/total``, the body's bytes) is in the body's
/// ``ResponseBody/metrics`` then.
///
/// A client over a ``Networking`` has none, so its ``APIClient/stream(_:)`` buffers:
/// the upload is collected before the request is sent and the body handed over whole.
/// ``ResponseHead/httpURLResponse`` is Foundation's response for a caller that needs one.
public typealias StreamingNetworking = @Sendable (URLRequest, RequestBody?) async throws -> (ResponseBody, ResponseHead)

/// A function that wraps a ``StreamingNetworking`` in a policy, as ``NetworkingLayer`` does for
/// ``Networking``.
package typealias StreamingNetworkingLayer = ExchangeLayer<ResponseBody, ResponseHead>

/// Wraps `networking` in `layers`, the first outermost.
package func layered(_ networking: @escaping StreamingNetworking, _ layers: [StreamingNetworkingLayer]) -> StreamingNetworking {
    layered(exchange: networking, layers)
}
