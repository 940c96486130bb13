/// What an engine measured of one exchange: when each phase ended, whether a connection was
/// reused, where it went and how many bytes crossed.
///
/// Durations count from the start of the exchange, as libcurl's `CURLINFO_*_TIME_T` values do,
/// so each is the sum of the phases before it. A value an engine cannot measure is nil, never
/// estimated: `CurlTransport` fills every field from libcurl; `URLSessionTransport` fills what a
/// layer can see around FoundationNetworking (``firstByte``, ``total``, the bytes of the body),
/// and nothing below it.
public struct ExchangeMetrics: Sendable, Equatable {
    /// Waiting for a free connection to the host (libcurl 8.6 and later).
    public var queued: Duration?
    /// The host name resolved.
    public var nameLookup: Duration?
    /// The TCP connection established.
    public var connect: Duration?
    /// The TLS handshake done; nil for plain HTTP.
    public var secureConnect: Duration?
    /// Ready to send the request (the head about to go out).
    public var requestSent: Duration?
    /// The first byte of the response arrived.
    public var firstByte: Duration?
    /// The exchange ended.
    public var total: Duration?
    /// Whether the exchange went over a connection an earlier one had opened.
    public var connectionReused: Bool?
    /// The server's address and port, e.g. `127.0.0.1:8080` or `[::1]:8080`.
    public var remoteAddress: String?
    /// This side's address and port.
    public var localAddress: String?
    /// Bytes of the request sent, head and body.
    public var requestBytes: Int?
    /// Bytes of the response head received.
    public var responseHeaderBytes: Int?
    /// Bytes of the response body received as they came on the wire (encoded, if it was).
    public var responseBodyBytes: Int?
    /// Bytes of the response body after content decoding.
    public var decodedBodyBytes: Int?
    /// The hops before this one when redirects were followed, first to last; each is measured
    /// from its own start. A streamed exchange drops a followed redirect's body at its head, so
    /// its hops hold what their heads carried: the phases up to the first byte, no total.
    public var redirects: [ExchangeMetrics] = []
    /// The attempts before this one when the retry layer (``Policies/retries``) sent the request again, first to
    /// last; empty when the first attempt was the answer.
    public var attempts: [ExchangeAttempt] = []

    /// Where the response came from: the network, or the cache (``Policies/cache``) with or
    /// without revalidating. An answer from the cache without asking the server has no phase
    /// measured.
    public var source: ResponseSource = .network

    /// Metrics with nothing measured, for an engine to fill in with what it measured.
    public init() {}
}
