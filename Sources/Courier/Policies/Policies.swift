#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Everything about an exchange that is policy rather than wire: one vocabulary for both
/// transports, so a configuration means the same whichever engine sends the requests.
///
/// Each transport takes its policies from its configuration and applies them once over its
/// engine. The limits and the idle timeout are enforced by the engine while it sends and
/// receives, since only the engine sees the bytes; the rest are layers over it, outermost first:
/// ``callLayers``, error descriptions, the total deadline, retries, redirects, then on every hop
/// cookies, the cache, response validation and ``hopLayers``.
///
/// ```swift
/// var policies = Policies()
/// policies.idleTimeout = 10
/// policies.totalDeadline = 30
/// policies.redirects.maximumRedirects = 5
/// let transport = URLSessionTransport(configuration: .init(policies: policies))
/// ```
public struct Policies: Sendable, Equatable {
    /// Which redirects are followed and how (see ``RedirectPolicy``).
    public var redirects = RedirectPolicy()

    /// Where cookies are kept and sent from, on every hop of a redirect chain; `nil` (the
    /// default) for none, so every response depends only on its request. Compared by identity.
    /// See ``CookieStore``.
    public var cookies: CookieStore? = nil

    /// Where responses are kept and answered again from (RFC 9111, a private cache); `nil` (the
    /// default) for none, so every request goes to the server. The same cache serves both
    /// engines; `URLSessionTransport` never uses URLSession's own `URLCache`. Compared by
    /// identity. See ``HTTPCache``.
    public var cache: HTTPCache? = nil

    /// How long one call may take in total, in seconds, redirects, retries and the waits between
    /// them included, and for a streamed call the body too; `nil` (the default) for no limit.
    /// Past it the call fails with `URLError(.timedOut)`.
    public var totalDeadline: TimeInterval? = nil

    /// How long an exchange may wait without a byte sent or received, in seconds, waiting for a
    /// connection included: URLSession's `timeoutIntervalForRequest`, on both engines. Default
    /// 60. Past it the exchange fails with `URLError(.timedOut)`, whose message names the limit.
    ///
    /// One request waits longer or shorter, the same on both engines:
    ///
    /// - ``Request/timeoutInterval`` set (not `nil`) is that request's limit, whatever the value,
    ///   60 s included: it travels beside the request, so nothing has to guess it was chosen.
    /// - A `URLRequest` sent as it is keeps its own `timeoutInterval` unless that is 0 or
    ///   URLRequest's default of 60 s. FoundationNetworking lets a `timeoutInterval` that was
    ///   assigned win over the session's, 60 s included, but keeps whether it was assigned in a
    ///   flag no other code can read; a 60 s is taken to be the default, so
    ///   `URLRequest(url:)` waits this long. To wait exactly 60 s under another idle timeout, send
    ///   a ``Request`` with its `timeoutInterval` set.
    public var idleTimeout: TimeInterval = 60

    /// How long connecting (DNS, TCP, a proxy, TLS) may take, in seconds, within
    /// ``idleTimeout``; `nil` (the default) leaves connecting bounded by ``idleTimeout`` alone.
    /// Past it the exchange fails with `URLError(.timedOut)`. URLSession has no such setting,
    /// so `URLSessionTransport` refuses a request under policies that set one with
    /// ``RequestError/unsupportedOption(_:transport:supportedBy:)``, before anything is sent.
    public var connectTimeout: TimeInterval? = nil

    /// The `User-Agent` sent with a request that sets none, on both engines; `nil` (the default)
    /// sends `<process> Courier/<version>`.
    public var userAgent: String? = nil

    /// Header fields sent with every request that does not set them itself, such as an
    /// `Accept` or an API key. They are filled in outside every other layer, so logging, the
    /// cache's `Vary`, cookies and authentication see the request as it goes out, and a value
    /// holding CR, LF or NUL is refused before anything is sent. A `User-Agent` here wins over
    /// ``userAgent``.
    public var headers: [String: String] = [:]

    /// Which failures and statuses are tried again, and how long to wait before each retry (see
    /// ``RetryPolicy``); ``RetryPolicy/none`` (the default) sends every request once.
    /// ``RetryPolicy/standard`` retries as Alamofire's `RetryPolicy` does.
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

    /// Layers of your own that run once per call, outermost, in this order (the first sees the
    /// request first): outside error descriptions, the total deadline, retries and redirects.
    /// Each call of their `next` is a whole call through the policies below, with its own
    /// deadline. Empty by default. See ``HTTPExchangeLayer``.
    public var callLayers: [any HTTPExchangeLayer] = []

    /// Layers of your own that run once per hop, innermost, in this order: on every attempt a
    /// retry makes and every redirect followed, after the cookies are added and the response is
    /// validated, next to the engine. Empty by default. See ``HTTPExchangeLayer``.
    public var hopLayers: [any HTTPExchangeLayer] = []

    /// The defaults described on each property.
    public init() {}

    /// The layers these policies put over an engine, outermost first; see ``apply(to:)``.
    package var layers: [NetworkingLayer] {
        exchangeLayers().map { buffered($0) }
    }

    /// The same policies as `layers`, in the same order, for a ``StreamingNetworking``: each
    /// decides on the response head as its buffered counterpart does, and error descriptions and
    /// the total deadline also cover the body while it is read (see ``StreamingLayers``).
    package var streamingLayers: [StreamingNetworkingLayer] {
        exchangeLayers()
    }

    /// `networking` with these policies over it, as a transport applies them over its engine:
    /// for a ``Networking`` of your own (a test double, a function over another client) that
    /// should follow redirects, retry and time out as the transports do.
    ///
    /// The layers, outermost first: ``callLayers``, error descriptions, the total deadline,
    /// retries, redirects, then on every hop cookies, the cache, response validation and
    /// ``hopLayers``.
    /// Retries sit inside the deadline, so that attempts and the waits between them count
    /// against it, and outside redirects, so that an attempt is a whole redirect chain and a
    /// retry starts again from the request the caller made. The limits and the idle timeout are
    /// the engine's to enforce.
    package func apply(to networking: @escaping Networking) -> Networking {
        // Stacked as exchanges and adapted once, rather than each layer adapting on its own.
        Courier.networking(sending: layered(exchange: exchange(sending: networking), exchangeLayers()))
    }

    /// `streaming` with `streamingLayers` over it.
    package func apply(to streaming: @escaping StreamingNetworking) -> StreamingNetworking {
        layered(exchange: streaming, exchangeLayers())
    }

    /// The one list both `layers` and `streamingLayers` are made from.
    func exchangeLayers<Body: ExchangeBody, Head: ExchangeHead>() -> [ExchangeLayer<Body, Head>] {
        var layers: [ExchangeLayer<Body, Head>] = [defaultHeaderLayer(defaultFields)]
        layers += callLayers.map(policyLayer)
        layers.append(errorDescriptionLayer())
        if let totalDeadline { layers.append(deadlineLayer(totalDeadline)) }
        // Off, the retry layer would only remove its request field; the redirect layer does
        // that instead, sparing every request a layer.
        if retries.isEnabled { layers.append(retryLayer(retries)) }
        layers.append(redirectLayer(redirects, removingRetryField: !retries.isEnabled))
        if let cookies { layers.append(cookieLayer(in: cookies)) }
        if let cache { layers.append(cacheLayer(cache)) }
        layers.append(validationLayer())
        layers += hopLayers.map(policyLayer)
        return layers
    }

    /// Equal when every policy is; cookie stores are compared by identity, and layers by their
    /// types in order (a layer's settings are its own).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.redirects == rhs.redirects && lhs.cookies === rhs.cookies && lhs.cache === rhs.cache && lhs.totalDeadline == rhs.totalDeadline
            && lhs.retries == rhs.retries && lhs.maximumResponseBytes == rhs.maximumResponseBytes
            && lhs.maximumHeaderBytes == rhs.maximumHeaderBytes
            && lhs.idleTimeout == rhs.idleTimeout && lhs.userAgent == rhs.userAgent && lhs.headers == rhs.headers
            && lhs.connectTimeout == rhs.connectTimeout
            && layerTypes(lhs.callLayers) == layerTypes(rhs.callLayers)
            && layerTypes(lhs.hopLayers) == layerTypes(rhs.hopLayers)
    }

    private static func layerTypes(_ layers: [any HTTPExchangeLayer]) -> [ObjectIdentifier] {
        layers.map { ObjectIdentifier(type(of: $0)) }
    }
}
