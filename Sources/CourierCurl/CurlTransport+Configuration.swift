import Foundation

extension CurlTransport {
    /// How a ``CurlTransport`` connects, what it accepts and how long it waits.
    ///
    /// The defaults are safe for talking to servers you do not control: TLS verification on, no
    /// proxy unless one is set here (proxy environment variables are ignored), bounded bodies and
    /// headers, URLSession's redirect limit and per-host connection count.
    public struct Configuration: Sendable, Equatable {
        /// The most TCP connections open to one host at a time (`CURLMOPT_MAX_HOST_CONNECTIONS`).
        /// Requests beyond it wait for a free connection, and the wait counts against their
        /// `timeoutInterval` and ``totalDeadline``, as it does with URLSession. Default 6,
        /// URLSession's `httpMaximumConnectionsPerHost`.
        public var maximumConnectionsPerHost: Int = 6

        /// The most redirects followed for one request before it fails with
        /// `URLError(.httpTooManyRedirects)`. Default 20, URLSession's limit; 0 returns every 3xx
        /// response as it is.
        public var maximumRedirects: Int = 20

        /// The most body bytes accepted for one response, counted after gzip/deflate/br/zstd
        /// decoding so a decompression bomb is stopped too. Beyond it the request fails with
        /// `URLError(.dataLengthExceedsMaximum)`. Default 64 MiB.
        public var maximumResponseBytes: Int = 64 << 20

        /// The most bytes of response headers (status line included, every interim response
        /// counted) accepted for one exchange. Beyond it the request fails with
        /// `URLError(.dataLengthExceedsMaximum)`. Default 256 KiB.
        public var maximumHeaderBytes: Int = 256 << 10

        /// How long connecting (DNS, TCP, TLS) may take, in seconds, capped by each request's
        /// `timeoutInterval`; 0, a negative value or NaN leaves only that cap. Default 60.
        public var connectTimeout: TimeInterval = 60

        /// How long one call of `data(for:)` may take in total, redirects included, in seconds;
        /// `nil` for no limit (URLSession's `timeoutIntervalForResource` is 7 days), as are NaN
        /// and values beyond `URLRequest.maximumTimeoutInterval`, infinity included. A request
        /// past it fails with `URLError(.timedOut)`.
        public var totalDeadline: TimeInterval? = nil

        /// Verify the server's certificate chain (`CURLOPT_SSL_VERIFYPEER`). Default `true`.
        public var verifiesPeer: Bool = true

        /// Verify that the certificate names the host (`CURLOPT_SSL_VERIFYHOST`). Default `true`.
        public var verifiesHost: Bool = true

        /// A PEM bundle of trusted CA certificates (`CURLOPT_CAINFO`); `nil` for the system's.
        public var caBundlePath: String? = nil

        /// The proxy for every request, e.g. `http://proxy:3128`; `nil` for none. `nil` sets
        /// `CURLOPT_PROXY` to `""`, so `http_proxy`, `https_proxy` and `ALL_PROXY` in the
        /// environment are never obeyed silently.
        public var proxy: String? = nil

        /// Follow a redirect from https to http. Default `false`: a downgrade would send the rest
        /// of the exchange in clear text.
        public var allowsInsecureRedirects: Bool = false

        /// Header names, beyond `Authorization`, `Cookie` and `Proxy-Authorization`, dropped when
        /// a redirect changes scheme, host or port (compared case-insensitively).
        public var sensitiveHeaderNames: Set<String> = []

        /// The `User-Agent` sent when a request sets none; `nil` sends what URLSession on Linux
        /// sends: `<process name> (unknown version) curl/<libcurl version>`.
        public var userAgent: String? = nil

        /// The defaults described on each property.
        public init() {}
    }
}
