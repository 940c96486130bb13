/// A function that wraps an ``HTTPExchange`` and returns the wrapped exchange: what
/// ``NetworkingLayer`` is to ``Networking``, over Courier's own response head.
///
/// Observability is written this way: `CourierLogging`, `CourierMetrics` and `CourierTracing`
/// each offer a layer of this type, and a transport's `exchange` already has the policies under
/// it, so a layer put over it sees one call per request, redirects included.
///
/// ```swift
/// let exchange = layered(transport.exchange, [logging(to: logger), recordingMetrics()])
/// ```
package typealias HTTPExchangeLayer = @Sendable (@escaping HTTPExchange) -> HTTPExchange

/// Wraps `exchange` in `layers`, the first outermost: it sees the request first and the
/// response last.
package func layered(_ exchange: @escaping HTTPExchange, _ layers: [HTTPExchangeLayer]) -> HTTPExchange {
    layers.reversed().reduce(exchange) { inner, layer in layer(inner) }
}
