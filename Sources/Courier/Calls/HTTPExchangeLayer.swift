/// A function that wraps an ``HTTPExchange`` and returns the wrapped exchange: what
/// ``NetworkingLayer`` is to ``Networking``, over Courier's own response head.
///
/// Observability is written this way: `CourierLogging`, `CourierMetrics` and `CourierTracing`
/// each offer a layer of this type, and ``APIClient/init(baseURL:transport:layers:decoder:encoder:)``
/// puts such layers over the transport's policies, so a layer sees one call per request,
/// redirects and retries included.
///
/// ```swift
/// let client = APIClient(baseURL: baseURL, transport: transport, layers: [logging(to: logger), recordingMetrics()])
/// ```
public typealias HTTPExchangeLayer = @Sendable (@escaping HTTPExchange) -> HTTPExchange

/// Wraps `exchange` in `layers`, the first outermost: it sees the request first and the
/// response last.
package func layered(_ exchange: @escaping HTTPExchange, _ layers: [HTTPExchangeLayer]) -> HTTPExchange {
    layers.reversed().reduce(exchange) { inner, layer in layer(inner) }
}
