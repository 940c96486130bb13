#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A function that wraps a ``Networking`` in a policy and returns the wrapped ``Networking``.
///
/// Courier's policies are layers of this type — ``followingRedirects(_:)``,
/// ``storingCookies(in:)``, ``totalDeadline(_:)``, ``validatingResponses()`` and
/// ``describingErrors()`` — and both transports put the same ones over their engine, so the
/// same request gets the same answer whichever engine sends it. A layer sees every request on
/// its way down and every response or error on its way up; a layer inside
/// ``followingRedirects(_:)`` sees each hop of a redirect chain.
///
/// ```swift
/// let networking = layered(transport.engine, [describingErrors(), followingRedirects()])
/// ```
public typealias NetworkingLayer = @Sendable (@escaping Networking) -> Networking

/// Wraps `networking` in `layers`, the first outermost: it sees the request first and the
/// response last.
public func layered(_ networking: @escaping Networking, _ layers: [NetworkingLayer]) -> Networking {
    layers.reversed().reduce(networking) { inner, layer in layer(inner) }
}
