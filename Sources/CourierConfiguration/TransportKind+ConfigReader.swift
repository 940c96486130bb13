import Configuration
import Courier
import CourierCurl

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension TransportKind {
    /// Reads the transport's name from the `transport` key of `config`; absent or empty means
    /// ``/CourierCurl/TransportKind/urlSession``, as for ``/CourierCurl/TransportKind/init(environment:)``.
    ///
    /// Scoped to `courier`, the key is `courier.transport`, which `EnvironmentVariablesProvider`
    /// spells `COURIER_TRANSPORT`: the variable ``/CourierCurl/TransportKind/init(environment:)``
    /// reads, with the same values and the same error type (whose description then names the key).
    ///
    /// ```swift
    /// // COURIER_TRANSPORT=curl ./MyService
    /// let config = ConfigReader(provider: EnvironmentVariablesProvider())
    /// let transport = try TransportKind(config: config.scoped(to: "courier"))
    /// ```
    ///
    /// - Throws: ``/CourierCurl/TransportSelectionError`` naming the full key, e.g.
    ///   `courier.transport="libcurl" is not a transport; accepted values: urlsession, curl`.
    public init(config: ConfigReader) throws(TransportSelectionError) {
        let reader = SettingReader(config)
        let name: String?
        do {
            name = try reader.string("transport", accepted: "")
        } catch {
            // Not a string at all (a number in a JSON file): the same mistake as a misspelt name.
            throw TransportSelectionError(value: error.value ?? "", source: reader.fullKey("transport"))
        }
        guard let name else {
            self = .default
            return
        }
        try self.init(name: name, source: reader.fullKey("transport"))
    }

    /// Builds the configured transport, with its engine settings and the shared policies, all
    /// read from `config`, kept whole: its `exchange`, `networking`, `streaming`, downloads and
    /// uploads, and `shutdown()`.
    ///
    /// ```swift
    /// let config = ConfigReader(providers: [
    ///     EnvironmentVariablesProvider(),
    ///     try await FileProvider<JSONSnapshot>(filePath: "courier.json", allowMissing: true),
    /// ])
    /// let transport = try TransportKind.makeTransport(config: config.scoped(to: "courier"))
    /// ```
    ///
    /// Keys are relative to `config`. Scoped to `courier` as above, they are, with their
    /// spelling in the environment (`EnvironmentVariablesProvider` upper-cases each word and
    /// joins with `_`):
    ///
    /// | Key | Environment | Type | Default | Accepted |
    /// |---|---|---|---|---|
    /// | `courier.transport` | `COURIER_TRANSPORT` | string | `urlsession` | `urlsession`, `curl`, any case |
    /// | `courier.redirects.maximum` | `COURIER_REDIRECTS_MAXIMUM` | int | `20` | 0 or more; 0 follows none |
    /// | `courier.redirects.allowsInsecure` | `COURIER_REDIRECTS_ALLOWS_INSECURE` | bool | `false` | `true`, `false` |
    /// | `courier.redirects.sensitiveHeaderNames` | `COURIER_REDIRECTS_SENSITIVE_HEADER_NAMES` | string list | none | header names |
    /// | `courier.timeouts.idle` | `COURIER_TIMEOUTS_IDLE` | double, seconds | `60` | above 0 |
    /// | `courier.timeouts.total` | `COURIER_TIMEOUTS_TOTAL` | double, seconds | no limit | above 0 |
    /// | `courier.timeouts.connect` | `COURIER_TIMEOUTS_CONNECT` | double, seconds | the idle timeout | above 0; curl only |
    /// | `courier.userAgent` | `COURIER_USER_AGENT` | string | `<process> Courier/<version>` | any |
    /// | `courier.headers` | `COURIER_HEADERS` | string list, secret | none | `Name: value` entries |
    /// | `courier.limits.responseBytes` | `COURIER_LIMITS_RESPONSE_BYTES` | int | `67108864` (64 MiB) | 0 or more |
    /// | `courier.limits.headerBytes` | `COURIER_LIMITS_HEADER_BYTES` | int | `262144` (256 KiB) | 1 or more |
    /// | `courier.cookies.enabled` | `COURIER_COOKIES_ENABLED` | bool | `false` | `true` keeps cookies in a new in-memory `CookieStore` |
    /// | `courier.cache.enabled` | `COURIER_CACHE_ENABLED` | bool | `false` | `true` keeps responses in memory (`HTTPCache`) |
    /// | `courier.cache.directory` | `COURIER_CACHE_DIRECTORY` | string | none | a directory path; keeps responses there, shared by processes |
    /// | `courier.cache.maximumBytes` | `COURIER_CACHE_MAXIMUM_BYTES` | int | 32 MiB in memory, 256 MiB in a directory | 1 or more |
    /// | `courier.cache.heuristicFreshness` | `COURIER_CACHE_HEURISTIC_FRESHNESS` | bool | `false` | `true`, `false` |
    /// | `courier.retries.maximumAttempts` | `COURIER_RETRIES_MAXIMUM_ATTEMPTS` | int | `1` (no retries) | 1 or more |
    /// | `courier.retries.initialDelay` | `COURIER_RETRIES_INITIAL_DELAY` | double, seconds | `0.5` | 0 or more |
    /// | `courier.retries.multiplier` | `COURIER_RETRIES_MULTIPLIER` | double | `2` | 1 or more |
    /// | `courier.retries.maximumDelay` | `COURIER_RETRIES_MAXIMUM_DELAY` | double, seconds | `30` | 0 or more |
    /// | `courier.retries.jitter` | `COURIER_RETRIES_JITTER` | double | `0.5` | 0...1 |
    /// | `courier.retries.maximumTime` | `COURIER_RETRIES_MAXIMUM_TIME` | double, seconds | no limit | above 0 |
    /// | `courier.retries.maximumRetryAfter` | `COURIER_RETRIES_MAXIMUM_RETRY_AFTER` | double, seconds | `60` | 0 or more |
    /// | `courier.retries.statusCodes` | `COURIER_RETRIES_STATUS_CODES` | int list | `408,429,500,502,503,504` | 100...599 each |
    /// | `courier.retries.anyMethod` | `COURIER_RETRIES_ANY_METHOD` | bool | `false` | `true` retries every method, not only idempotent ones |
    /// | `courier.curl.maximumConnectionsPerHost` | `COURIER_CURL_MAXIMUM_CONNECTIONS_PER_HOST` | int | `6` | 1 or more |
    /// | `courier.curl.verifiesPeer` | `COURIER_CURL_VERIFIES_PEER` | bool | `true` | `true`, `false` |
    /// | `courier.curl.caBundlePath` | `COURIER_CURL_CA_BUNDLE_PATH` | string | the system's CAs | a PEM file |
    /// | `courier.proxy` | `COURIER_PROXY` | string, secret | no proxy | a proxy URL, or `environment`; `curl` only |
    /// | `courier.proxyUser` | `COURIER_PROXY_USER` | string, secret | none | `user:password`; `curl` only |
    /// | `courier.noProxy` | `COURIER_NO_PROXY` | string list | none | hosts, addresses, CIDR ranges; `curl` only |
    /// | `courier.unixSocketPath` | `COURIER_UNIX_SOCKET_PATH` | string | TCP | a socket's path; `curl` only |
    /// | `courier.resolve` | `COURIER_RESOLVE` | string list | DNS | `host:port:address`; `curl` only |
    /// | `courier.connectTo` | `COURIER_CONNECT_TO` | string list | none | `host:port:host:port`; `curl` only |
    /// | `courier.dohURL` | `COURIER_DOH_URL` | string | the system's resolver | an `https` DoH server URL; `curl` only |
    /// | `courier.curl.recordsMetrics` | `COURIER_CURL_RECORDS_METRICS` | bool | `true` | `true`, `false`; `false` skips libcurl's per-exchange metrics |
    /// | `courier.curl.caDirectoryPath` | `COURIER_CURL_CA_DIRECTORY_PATH` | string | none | a directory of hashed CA certificates |
    /// | `courier.curl.maximumConcurrentStreams` | `COURIER_CURL_MAXIMUM_CONCURRENT_STREAMS` | int | `100` | 1 or more |
    /// | `courier.curl.eventLoopCount` | `COURIER_CURL_EVENT_LOOP_COUNT` | int | half the cores, at least 1 | 1 to 256 |
    /// | `courier.http.version` | `COURIER_HTTP_VERSION` | string | `automatic` | `automatic`, `http1.1`, `http2-prior-knowledge`, `http3`, `http3-only`; curl only but `automatic` |
    /// | `courier.tls.clientCertificate` | `COURIER_TLS_CLIENT_CERTIFICATE` | string | none | a PEM certificate; curl only |
    /// | `courier.tls.privateKey` | `COURIER_TLS_PRIVATE_KEY` | string | the certificate's file | a PEM private key; curl only |
    /// | `courier.tls.privateKeyPassphrase` | `COURIER_TLS_PRIVATE_KEY_PASSPHRASE` | string, secret | none | the key's passphrase; curl only |
    /// | `courier.tls.pinnedPublicKey` | `COURIER_TLS_PINNED_PUBLIC_KEY` | string | none | `sha256//<base64>`[`;`…]; curl only |
    /// | `courier.tls.minimumVersion` | `COURIER_TLS_MINIMUM_VERSION` | string | `1.2` | `1.2`, `1.3`; curl only but `1.2` |
    /// | `courier.urlsession.maximumConnectionsPerHost` | `COURIER_URLSESSION_MAXIMUM_CONNECTIONS_PER_HOST` | int | `6` | 1 or more |
    /// | `courier.urlsession.contentDecoding` | `COURIER_URLSESSION_CONTENT_DECODING` | string | `all` | `identityOnly`, `all` |
    /// | `courier.urlsession.maximumUnreadBytes` | `COURIER_URLSESSION_MAXIMUM_UNREAD_BYTES` | int | `67108864` (64 MiB) | 1 or more |
    ///
    /// The `redirects`, `timeouts`, `limits`, `userAgent`, `headers`, `cookies` and `retries` keys are the ``/Courier/Policies`` both
    /// transports share (``Courier/Policies/init(config:)``); the `curl` and `urlsession` keys
    /// are each engine's own (``CourierCurl/CurlTransport/Configuration/init(config:)``,
    /// ``Courier/URLSessionTransport/Configuration/init(config:)``). Both engines' keys are
    /// checked whichever transport is chosen, so a configuration that loads stays valid when
    /// `courier.transport` changes. An empty string counts as absent; a list is an array in a
    /// file and comma-separated in the environment; a bool in the environment may also be
    /// `yes`, `no`, `1` or `0`. Booleans and numbers in a JSON file are JSON's own, not strings.
    ///
    /// The routing keys (`courier.proxy` to `courier.dohURL`) say where requests go, so they
    /// are not an engine's own: with `urlsession`, which cannot honour them, setting any of
    /// them fails with `RequestError.unsupportedOption` rather than send requests elsewhere.
    /// The `http` and `tls` keys ask for what only `curl` does; with `urlsession`, any of them
    /// set (but `automatic` and `1.2`, which it does anyway) fails the same way, naming the key.
    ///
    /// - Throws: ``/CourierCurl/TransportSelectionError`` for an unknown transport name,
    ///   ``ConfigurationValueError`` for any other unusable value (each naming the full key and
    ///   what it accepts), `RequestError.unsupportedOption` for a routing, `http` or `tls` key
    ///   with `urlsession`, and what the transport's initializer throws.
    public static func makeTransport(config: ConfigReader) throws -> any HTTPTransport {
        let transport = try TransportKind(config: config)
        let urlSession = try URLSessionTransport.Configuration(config: config)
        let curl = try CurlTransport.Configuration(config: config)
        if transport == .urlSession, let (key, option) = RouteKeys.firstSet(in: SettingReader(config)) {
            throw RequestError.unsupportedOption("\(option) (\(key))", transport: "URLSessionTransport", supportedBy: "CurlTransport")
        }
        if transport == .urlSession, let refusal = curl.refusalOnURLSession(SettingReader(config)) {
            throw refusal
        }
        return try transport.makeTransport(urlSession: urlSession, curl: curl)
    }
}
