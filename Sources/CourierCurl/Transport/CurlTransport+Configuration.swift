import Courier
import Foundation

extension CurlTransport {
    /// How a ``CurlTransport`` connects, what it accepts and how long it waits.
    ///
    /// The defaults are safe for talking to servers you do not control: TLS verification on, no
    /// proxy unless one is set here (proxy environment variables are ignored), URLSession's
    /// per-host connection count, and the shared ``/Courier/Policies`` (bounded bodies and
    /// headers, URLSession's redirect limit, no credentials across origins).
    public struct Configuration: Sendable, Equatable {
        /// The most TCP connections open to one host at a time (`CURLMOPT_MAX_HOST_CONNECTIONS`).
        /// Requests beyond it wait for a free connection, and the wait counts against their
        /// `timeoutInterval` and the total deadline, as it does with URLSession. Default 6,
        /// URLSession's `httpMaximumConnectionsPerHost`.
        public var maximumConnectionsPerHost: Int = 6

        /// How many event loops the transport runs its transfers on: each a thread of its own
        /// with its own libcurl multi handle and connections, so that one transport can use more
        /// than one core. Default: half the cores this process may run on, at least 1 (1 on 1
        /// or 2 cores, 8 on 16, 32 on 64).
        ///
        /// Why half: a loop's thread does libcurl's work and little else, the larger part of a
        /// small request's work; building the response, the policy layers and decoding run on
        /// the awaiting tasks, on Swift's global executor, which has a thread per core. Loops
        /// kept busy on a little more than half the cores leave that work the rest, so half
        /// fills the machine and leaves a little for the app's own work (Benchmarks/README.md,
        /// "Event loops per transport", measures it). One host's HTTP/1.1 requests use at most ``maximumConnectionsPerHost``
        /// loops (6 by default), so a transport that sends most of its traffic to one host
        /// gains from more loops only with a higher connection limit.
        ///
        /// Requests to one host over HTTP/1.1 are spread over the loops, each of which keeps
        /// and reuses its own connections to that host. Requests that may share an HTTP/2
        /// connection (see ``maximumConcurrentStreamsPerConnection``) go to one loop per origin,
        /// so they still share one connection. ``maximumConnectionsPerHost`` holds for all the
        /// loops together: it is split between the loops a host's requests use, so a host never
        /// uses more loops than it may have connections. From 1 to 256: another value fails
        /// ``CurlTransport/init(configuration:)`` with a ``CurlError`` of kind
        /// ``CurlError/Kind/option``.
        public var eventLoopCount: Int = Configuration.defaultEventLoopCount

        /// Half the cores this process may run on, at least 1.
        static let defaultEventLoopCount = max(1, availableCores() / 2)

        /// The cores in this process's CPU affinity (`taskset`, a container's cpuset), from
        /// Linux's `/proc/self/status`; elsewhere, or when it cannot be read, every active core.
        /// Foundation's count ignores the affinity, and Glibc's module leaves out
        /// `sched_getaffinity`.
        static func availableCores() -> Int {
            if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
               let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
               let count = coreCount(inAllowedList: line.dropFirst("Cpus_allowed_list:".count)), count > 0 {
                return count
            }
            return ProcessInfo.processInfo.activeProcessorCount
        }

        /// The cores a list such as `0-3,8,10-11` names; nil when it is not such a list.
        static func coreCount(inAllowedList list: Substring) -> Int? {
            var count = 0
            for range in list.trimmingCharacters(in: .whitespaces).split(separator: ",") {
                let ends = range.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                switch (ends.count, ends.first ?? nil, ends.last ?? nil) {
                case (1, .some, _): count += 1
                case (2, .some(let low), .some(let high)) where low <= high: count += high - low + 1
                default: return nil
                }
            }
            return count
        }

        /// Redirects, limits, the total deadline and the other policies both transports share.
        /// The limits are enforced while receiving; the rest are layers over this engine.
        public var policies = Policies()

        /// Verify the server's certificate: its chain up to a trusted CA
        /// (`CURLOPT_SSL_VERIFYPEER`) and that it names the host (`CURLOPT_SSL_VERIFYHOST`).
        /// Default `true`; `false` turns both off, as curl's `-k` does.
        ///
        /// One switch for both because either check alone protects against nothing: without the
        /// chain anyone can sign a certificate for the name, and without the name any
        /// certificate a trusted CA signed for another host passes. To reach a host by an address
        /// its certificate does not name, keep the name and route it with ``resolve`` or
        /// ``connectTo``.
        public var verifiesPeer: Bool = true

        /// A PEM bundle of trusted CA certificates (`CURLOPT_CAINFO`); `nil` for the system's.
        public var caBundlePath: String? = nil

        // MARK: HTTP/2 and TLS identity

        /// Which HTTP versions are spoken: HTTP/2 over TLS where the server offers it, HTTP/1.1
        /// otherwise (the default, as URLSession and AsyncHTTPClient do), HTTP/1.1 only, or
        /// HTTP/2 with prior knowledge (h2c). See ``HTTPVersionPreference``.
        public var httpVersion: HTTPVersionPreference = .automatic

        /// The most requests in flight at once on one HTTP/2 connection
        /// (`CURLMOPT_MAX_CONCURRENT_STREAMS`); the server's own limit applies too. Requests to one
        /// host beyond it open another connection, up to ``maximumConnectionsPerHost``, and then
        /// wait. Requests that may share a connection wait for one being opened rather than each
        /// opening its own (`CURLOPT_PIPEWAIT`), so a burst of 64 goes over one connection.
        /// Default 100, libcurl's and most servers' own.
        public var maximumConcurrentStreamsPerConnection: Int = 100

        /// A directory of trusted CA certificates named by their hash, as `openssl rehash` makes
        /// it (`CURLOPT_CAPATH`), trusted beside ``caBundlePath``; `nil` for none but the bundle.
        public var caDirectoryPath: String? = nil

        /// The certificate presented to servers that ask for one (mutual TLS); `nil` for none.
        public var clientCertificate: ClientCertificate? = nil

        /// The server's public key, pinned (`CURLOPT_PINNEDPUBLICKEY`): `sha256//` and the base64
        /// of the SHA-256 of its DER SubjectPublicKeyInfo, several joined by `;`, or a path to
        /// a PEM or DER public key. A server presenting another key fails with
        /// `URLError(.serverCertificateUntrusted)`, even with a chain that verifies. `nil` pins
        /// nothing.
        public var pinnedPublicKey: String? = nil

        /// The lowest TLS version accepted (`CURLOPT_SSLVERSION`). Default TLS 1.2: the older
        /// versions are deprecated (RFC 8996), and a server offering only those fails with
        /// `URLError(.secureConnectionFailed)` rather than being reached over them.
        public var minimumTLSVersion: TLSVersion = .tls1_2

        /// Where the alternative services servers announce (`Alt-Svc`) are kept, so that later
        /// requests use them: ``AltSvcCache/off`` (the default), ``AltSvcCache/inMemory`` or a
        /// file curl's `--alt-svc` also reads (``AltSvcCache/file(_:)``). With
        /// ``HTTPVersionPreference/http3`` it moves requests to HTTP/3 where a server announces it.
        public var altSvcCache: AltSvcCache = .off

        // MARK: Where requests go (see CurlTransport+Proxy.swift, CurlTransport+DNSOverride.swift, CurlEasyHandle+Route.swift)

        /// The proxy for every request (``CurlTransport/Proxy``): `.none` by default, which sets
        /// `CURLOPT_PROXY` to `""`, so `http_proxy`, `https_proxy` and `ALL_PROXY` in the
        /// environment are never obeyed silently; ``CurlTransport/Proxy/environment`` obeys them.
        public var proxy: Proxy = .none

        /// A Unix domain socket every request is sent over (`CURLOPT_UNIX_SOCKET_PATH`), e.g.
        /// `/var/run/docker.sock`; the URL's host still goes in the `Host` header. `nil` for TCP.
        /// One request can name its own socket with an `http+unix` URL (see
        /// `URL.unixSocket(_:path:secure:)`), which wins over this.
        public var unixSocketPath: String? = nil

        /// Host names and ports answered with fixed addresses instead of DNS (`CURLOPT_RESOLVE`).
        public var resolve: [ResolveOverride] = []

        /// Connections to one host and port made to another instead (`CURLOPT_CONNECT_TO`).
        public var connectTo: [ConnectOverride] = []

        /// A DNS-over-HTTPS server that resolves every host name instead of the system's
        /// resolver (`CURLOPT_DOH_URL`, curl's `--doh-url`), e.g.
        /// `https://dns.example/dns-query`; `nil` for the system's resolver. An `https` URL;
        /// another fails ``CurlTransport/init(configuration:)``.
        ///
        /// Names in ``resolve`` are still answered from there, without a query. The DoH server's
        /// certificate is always verified, against ``caBundlePath`` and ``caDirectoryPath`` when
        /// set (libcurl hands them to its DoH requests), whatever ``verifiesPeer`` says, as curl's
        /// `-k` leaves `--doh-url` verified. A name the server
        /// cannot answer, or a server that cannot be reached or verified, fails the request with
        /// `URLError(.cannotFindHost)` naming this URL. A host name in this URL is itself
        /// resolved by the system's resolver.
        ///
        /// libcurl makes its DoH requests on handles of its own, which take neither ``proxy``
        /// nor its refusal of the environment's proxies: `https_proxy`, `ALL_PROXY` and
        /// `NO_PROXY` in the environment apply to them (libcurl 7.76 to 8.14). Where those are
        /// set, list the DoH server's host in `NO_PROXY`.
        public var dohURL: URL? = nil

        /// How many unread bytes of a streamed response body wait before receiving pauses
        /// (see ``/Courier/HTTPTransport/stream(for:uploading:)``): the bound on a stream's memory, beside
        /// libcurl's own receive buffer. Default 1 MiB.
        public var streamBufferSize: Int = ResponseBody.defaultBufferSize

        /// Whether each exchange's ``/Courier/ExchangeMetrics`` are read from libcurl when it
        /// ends: sixteen `curl_easy_getinfo` calls for the phase times, whether the connection
        /// was reused, both addresses and the bytes each way. Default `true`.
        ///
        /// With `false`, those metrics are nil in each response's ``/Courier/ResponseHead/metrics``:
        /// every duration,
        /// `connectionReused`, `remoteAddress`, `localAddress`, `requestBytes`,
        /// `responseHeaderBytes` and `responseBodyBytes`. `decodedBodyBytes`, which the
        /// transport counts itself, is still set, and `redirects` still has one entry per hop.
        /// Layers that report timings (CourierMetrics, CourierLogging, CourierTracing) then
        /// have none to report.
        public var recordsMetrics: Bool = true

        /// The defaults described on each property.
        public init() {}
    }
}
