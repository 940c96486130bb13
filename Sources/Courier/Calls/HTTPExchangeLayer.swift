#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A step of your own in every exchange a transport makes: a header added, a request signed, a
/// log line written, a credential refreshed.
///
/// A layer gets each request and the rest of the stack as `next`, and answers with what `next`
/// answered, or with what it decides instead. It is written once and runs on buffered calls
/// (`Data` bodies) and streamed calls (``ResponseBody``) alike, which is why the body is generic:
/// a layer decides on the request and the ``ResponseHead``, and passes the body up untouched.
///
/// Layers go into a transport's ``Policies``, in one of two places:
/// - ``Policies/callLayers`` run once per call, outside every policy: they see the request as
///   the caller made it and the answer or error the caller gets, after redirects, retries, the
///   total deadline and error descriptions. OkHttp calls these application interceptors.
/// - ``Policies/hopLayers`` run once per hop, inside every policy: on each attempt a retry makes
///   and each redirect followed, with the cookies added, next to the engine. OkHttp calls these
///   network interceptors.
///
/// ```swift
/// struct RequestID: HTTPExchangeLayer {
///     func send<Body: Sendable>(
///         _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
///     ) async throws -> (Body, ResponseHead) {
///         var tagged = request
///         tagged.setValue(UUID().uuidString, forHTTPHeaderField: "X-Request-ID")
///         return try await next(tagged)
///     }
/// }
/// ```
///
/// A layer may call `next` more than once (to send again after refreshing a credential, say).
/// A request body from ``RequestBody/stream(_:length:)``, which can be read only once, goes with
/// the first call; a later one fails with `URLError(.requestBodyStreamExhausted)`.
public protocol HTTPExchangeLayer: Sendable {
    /// Sends `request` through the rest of the stack, `next`, and answers with its response.
    ///
    /// - Parameters:
    ///   - request: The request as the layer above handed it down.
    ///   - next: The rest of the stack: the next layer, the policies, the engine.
    /// - Returns: The body, untouched or from a later call of `next`, and its head.
    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead)
}

/// `layer` over an exchange of either kind of body, so that a user's layer stacks with the
/// policies. Over a ``Networking``, the Foundation response is wrapped as a head on the way up
/// and handed back as it was.
package func policyLayer<Body: Sendable, Head: ExchangeHead>(_ layer: any HTTPExchangeLayer) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            let sent = Locked(false)
            let (body, head) = try await layer.send(request) { request in
                // The first send takes the upload; a stream already read cannot be read again.
                let first = sent.withLock { sent in defer { sent = true }; return !sent }
                if !first, let upload, !upload.isReplayable {
                    throw URLError(.requestBodyStreamExhausted, "a layer sent the request again, but its streamed body cannot be read twice", url: request.url)
                }
                let (body, response) = try await send(request, upload)
                guard let head = response.responseHead else { throw URLError.notHTTP(url: request.url) }
                return (body, head)
            }
            guard let response = Head.answering(head) else { throw URLError.notHTTP(url: request.url) }
            return (body, response)
        }
    }
}

extension URLError {
    /// A ``Networking`` of the user's answered with a response that is not HTTP, where a layer
    /// needs a ``ResponseHead``.
    fileprivate static func notHTTP(url: URL?) -> URLError {
        URLError(.badServerResponse, "the response is not an HTTP response", url: url)
    }
}

/// Wraps `exchange` in `layers`, the first outermost, as ``Policies/callLayers`` wraps a
/// transport's: for testing a layer over an engine alone.
package func layered(_ exchange: @escaping HTTPExchange, _ layers: [any HTTPExchangeLayer]) -> HTTPExchange {
    let stacked: Exchange<Data, ResponseHead> = layered(exchange: { request, _ in try await exchange(request) }, layers.map(policyLayer))
    return { request in try await stacked(request, nil) }
}
