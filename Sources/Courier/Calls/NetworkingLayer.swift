#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A function that wraps a ``Networking`` and returns the wrapped ``Networking``: a step of
/// your own (a header, a log line, a test's recording) put in front of any networking.
///
/// A layer sees every request on its way down and every response or error on its way up.
/// Courier's own policies are applied by the transports from ``Policies``; a layer of this type
/// goes over what a transport answers, so it sees one call per request, redirects included.
///
/// ```swift
/// let traced: NetworkingLayer = { next in { request in print(request.httpMethod ?? "GET"); return try await next(request) } }
/// let networking = layered(transport.networking, [traced])
/// ```
package typealias NetworkingLayer = @Sendable (@escaping Networking) -> Networking

/// Wraps `networking` in `layers`, the first outermost: it sees the request first and the
/// response last.
package func layered(_ networking: @escaping Networking, _ layers: [NetworkingLayer]) -> Networking {
    layers.reversed().reduce(networking) { inner, layer in layer(inner) }
}

/// One exchange whose body comes back as `Body`: `Data` for ``Networking``, ``ResponseBody``
/// for ``StreamingNetworking`` (which is `Exchange<ResponseBody, ResponseHead>`). Every policy is written once
/// over this, so the buffered and the streaming layers cannot drift apart.
package typealias Exchange<Body, Head> = @Sendable (URLRequest, RequestBody?) async throws -> (Body, Head)

/// A policy over an ``Exchange``: given the exchange below it, the exchange it makes of it.
///
/// A struct rather than a bare function type: an array holds a function value at its most
/// general abstraction, and each layer taken from one would then put reabstraction thunks,
/// each an async frame, into every request's path through the stack.
package struct ExchangeLayer<Body, Head>: Sendable {
    package let wrap: @Sendable (@escaping Exchange<Body, Head>) -> Exchange<Body, Head>

    package init(_ wrap: @escaping @Sendable (@escaping Exchange<Body, Head>) -> Exchange<Body, Head>) {
        self.wrap = wrap
    }

    package func callAsFunction(_ next: @escaping Exchange<Body, Head>) -> Exchange<Body, Head> {
        wrap(next)
    }
}

/// `networking` as an exchange; it never gets an upload, since nothing above it makes one.
func exchange(sending networking: @escaping Networking) -> Exchange<Data, URLResponse> {
    { request, _ in try await networking(request) }
}

/// `exchange` as a ``Networking``: the request's own `httpBody` or `httpBodyStream` is the body.
func networking(sending exchange: @escaping Exchange<Data, URLResponse>) -> Networking {
    { request in try await exchange(request, nil) }
}

/// `layer` as a ``NetworkingLayer``.
func buffered(_ layer: ExchangeLayer<Data, URLResponse>) -> NetworkingLayer {
    { inner in networking(sending: layer(exchange(sending: inner))) }
}

/// Wraps `exchange` in `layers`, the first outermost, whatever its kind of body.
package func layered<Body, Head>(exchange: @escaping Exchange<Body, Head>, _ layers: [ExchangeLayer<Body, Head>]) -> Exchange<Body, Head> {
    var stacked = exchange
    for layer in layers.reversed() { stacked = layer(stacked) }
    return stacked
}
