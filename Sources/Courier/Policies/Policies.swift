#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Everything about an exchange that is policy rather than wire: one vocabulary for both
/// transports, so a configuration means the same whichever engine sends the requests.
///
/// A transport's `networking` is its engine with ``layers`` over it. The limits are enforced by
/// each engine while it receives, since only the engine sees the bytes before they are kept;
/// the rest are ``NetworkingLayer`` values a caller can also stack by hand:
///
/// ```swift
/// var policies = Policies()
/// policies.totalDeadline = 30
/// policies.redirects.maximumRedirects = 5
/// let networking = policies.apply(to: transport.engine)
/// ```
public struct Policies: Sendable, Equatable {
    /// Which redirects are followed and how (see ``RedirectPolicy``).
    public var redirects = RedirectPolicy()

    /// Where cookies are kept and sent from, on every hop of a redirect chain; `nil` (the
    /// default) for none, so every response depends only on its request. See
    /// ``storingCookies(in:)``. Compared by identity.
    public var cookies: CookieStore? = nil

    /// How long one call may take in total, redirects included, in seconds; `nil` (the default)
    /// for no limit. See ``totalDeadline(_:)``.
    public var totalDeadline: TimeInterval? = nil

    /// Which failures and statuses are tried again, and how long to wait before each retry
    /// (see ``RetryPolicy`` and ``retrying(_:)``); ``RetryPolicy/none`` (the default) sends
    /// every request once. ``RetryPolicy/standard`` retries as Alamofire's `RetryPolicy` does.
    public var retries = RetryPolicy.none

    /// The most body bytes accepted for one response, counted after gzip/deflate/br/zstd
    /// decoding so that a decompression bomb is stopped too. Beyond it the request fails with
    /// `URLError(.dataLengthExceedsMaximum)`. Default 64 MiB. Enforced by the engine.
    public var maximumResponseBytes: Int = 64 << 20

    /// The most bytes of response headers (status line included, every interim response
    /// counted) accepted for one exchange; beyond it the request fails with
    /// `URLError(.dataLengthExceedsMaximum)`. Default 256 KiB. Enforced by the engine; libcurl
    /// under both engines also refuses any single header line over 100 KiB.
    public var maximumHeaderBytes: Int = 256 << 10

    /// The defaults described on each property.
    public init() {}

    /// The layers these policies put over an engine, outermost first: error descriptions, the
    /// total deadline, retries, redirects, then on every hop cookies and response validation.
    ///
    /// Retries sit inside the deadline, so that attempts and the waits between them count
    /// against it, and outside redirects, so that an attempt is a whole redirect chain and a
    /// retry starts again from the request the caller made, not from a hop the caller never
    /// asked for. The retry layer is always there, to remove ``RetryPolicy/requestField``; with
    /// ``RetryPolicy/none`` it sends every request once.
    public var layers: [NetworkingLayer] {
        exchangeLayers().map { buffered($0) }
    }

    /// The same policies as ``layers``, in the same order, for a ``StreamingNetworking``: each
    /// decides on the response head as its buffered counterpart does, and error descriptions and
    /// the total deadline also cover the body while it is read (see ``StreamingLayers``).
    public var streamingLayers: [StreamingNetworkingLayer] {
        exchangeLayers()
    }

    /// `engine` with ``layers`` over it.
    public func apply(to engine: @escaping Networking) -> Networking {
        // Stacked as exchanges and adapted once, rather than each layer adapting on its own.
        networking(sending: layered(exchange: exchange(sending: engine), exchangeLayers()))
    }

    /// `streaming` with ``streamingLayers`` over it.
    public func apply(to streaming: @escaping StreamingNetworking) -> StreamingNetworking {
        layered(streaming, exchangeLayers())
    }

    /// The one list both ``layers`` and ``streamingLayers`` are made from.
    func exchangeLayers<Body: ExchangeBody, Head: ExchangeHead>() -> [ExchangeLayer<Body, Head>] {
        var layers: [ExchangeLayer<Body, Head>] = [errorDescriptionLayer()]
        if let totalDeadline { layers.append(deadlineLayer(totalDeadline)) }
        layers.append(retryLayer(retries))
        layers.append(redirectLayer(redirects))
        if let cookies { layers.append(cookieLayer(in: cookies)) }
        layers.append(validationLayer())
        return layers
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.redirects == rhs.redirects && lhs.cookies === rhs.cookies && lhs.totalDeadline == rhs.totalDeadline
            && lhs.retries == rhs.retries && lhs.maximumResponseBytes == rhs.maximumResponseBytes
            && lhs.maximumHeaderBytes == rhs.maximumHeaderBytes
    }
}
