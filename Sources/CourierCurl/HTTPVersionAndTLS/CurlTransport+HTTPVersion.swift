extension CurlTransport {
    /// Which HTTP versions a ``CurlTransport`` speaks (`CURLOPT_HTTP_VERSION`).
    ///
    /// ``automatic``, the default, is what URLSession, AsyncHTTPClient and the curl command line
    /// do: HTTP/2 where the server offers it during the TLS handshake (ALPN), HTTP/1.1 otherwise
    /// and over plain `http`. Nothing has to be known about a server in advance, and a server
    /// that speaks only HTTP/1.1 is still reached.
    public struct HTTPVersionPreference: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Hashable, Sendable {
            case http1_1, automatic, http2PriorKnowledge, http3, http3Only
        }

        private let value: Value

        /// HTTP/1.1 only, also over TLS (`CURL_HTTP_VERSION_1_1`; curl's `--http1.1`).
        public static let http1_1 = HTTPVersionPreference(value: .http1_1)
        /// HTTP/2 over TLS when the server accepts it by ALPN, HTTP/1.1 otherwise and for plain
        /// `http` (`CURL_HTTP_VERSION_2TLS`; curl's `--http2`). The default.
        public static let automatic = HTTPVersionPreference(value: .automatic)
        /// HTTP/2 from the first byte, without asking, also over plain `http` (h2c;
        /// `CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE`; curl's `--http2-prior-knowledge`): for servers
        /// known to speak it, such as a service mesh's sidecar. A server that speaks only
        /// HTTP/1.1 fails the request.
        ///
        /// libcurl before 8.0 (Debian 12 ships 7.88) cannot send a second request over an h2c
        /// connection, so there each request to an `http` URL opens a connection of its own and
        /// closes it afterwards: every request is answered, none shares a connection, and
        /// ``/Courier/ExchangeMetrics/connectionReused`` is false. Over `https` connections are shared
        /// on every version.
        public static let http2PriorKnowledge = HTTPVersionPreference(value: .http2PriorKnowledge)
        /// HTTP/3 over QUIC where the server answers on UDP, HTTP/2 or HTTP/1.1 over TCP
        /// otherwise, as curl's `--http3` does (`CURL_HTTP_VERSION_3`): libcurl tries QUIC and
        /// TCP side by side, QUIC first, and keeps whichever connects. Only `https` URLs speak
        /// HTTP/3; plain `http` is HTTP/1.1 as with ``automatic``. An Alt-Svc answer moves later
        /// requests to the HTTP/3 service it names when the transport keeps an Alt-Svc cache
        /// (``CurlTransport/Configuration/altSvcCache``).
        ///
        /// Needs a libcurl built with HTTP/3 (``/Courier/TransportCapabilities/speaksHTTP3``): on any
        /// other, every request fails with `RequestError.unsupportedOption` before anything is sent.
        public static let http3 = HTTPVersionPreference(value: .http3)
        /// HTTP/3 over QUIC or nothing (`CURL_HTTP_VERSION_3ONLY`; curl's `--http3-only`): a
        /// server that does not answer on UDP fails the request with `URLError(.cannotConnectToHost)`
        /// rather than be reached over TCP. Refused like ``http3`` where libcurl lacks HTTP/3.
        public static let http3Only = HTTPVersionPreference(value: .http3Only)

        /// `http1.1`, `automatic`, `http2-prior-knowledge`, `http3` or `http3-only`: the
        /// spelling the configuration keys use.
        public var description: String {
            switch value {
            case .http1_1: "http1.1"
            case .automatic: "automatic"
            case .http2PriorKnowledge: "http2-prior-knowledge"
            case .http3: "http3"
            case .http3Only: "http3-only"
            }
        }

        /// The preference spelt as ``description`` spells it, any letter case; nil for another text.
        package init?(name: String) {
            switch name.lowercased() {
            case "http1.1": value = .http1_1
            case "automatic": value = .automatic
            case "http2-prior-knowledge": value = .http2PriorKnowledge
            case "http3": value = .http3
            case "http3-only": value = .http3Only
            default: return nil
            }
        }

        private init(value: Value) {
            self.value = value
        }

        /// The `CURLOPT_HTTP_VERSION` value.
        var curlValue: Int {
            switch value {
            case .http1_1: Curl.HTTPVersionValue.http1_1
            case .automatic: Curl.HTTPVersionValue.http2OverTLS
            case .http2PriorKnowledge: Curl.HTTPVersionValue.http2PriorKnowledge
            case .http3: Curl.HTTPVersionValue.http3
            case .http3Only: Curl.HTTPVersionValue.http3Only
            }
        }

        /// Whether this preference asks for HTTP/3, which only a libcurl built with it can speak.
        var needsHTTP3: Bool {
            value == .http3 || value == .http3Only
        }

        /// Whether a request to a URL of `scheme` may share a connection with others at once.
        /// Only those wait for a connection being opened (`CURLOPT_PIPEWAIT`) rather than open
        /// their own: a burst of plain HTTP/1.1 requests would otherwise wait one round trip for
        /// the first to learn that its connection cannot be shared.
        func multiplexes(scheme: String?, features: CurlFeatures = Curl.features) -> Bool {
            switch value {
            case .http1_1: false
            case .automatic, .http3, .http3Only: scheme?.lowercased() == "https"
            case .http2PriorKnowledge: reusesConnections(scheme: scheme, features: features)
            }
        }

        /// Whether a connection opened for a request to a URL of `scheme` may carry later
        /// requests. Not h2c on a libcurl that breaks every request after a connection's first
        /// (``CurlFeatures/reusesCleartextHTTP2Connections``): there each request opens a
        /// connection of its own and closes it when done (`CURLOPT_FRESH_CONNECT`,
        /// `CURLOPT_FORBID_REUSE`), which costs a connection per request and answers every one,
        /// where sharing would answer only the first. Its metrics say so:
        /// ``/Courier/ExchangeMetrics/connectionReused`` is false on each.
        func reusesConnections(scheme: String?, features: CurlFeatures = Curl.features) -> Bool {
            guard value == .http2PriorKnowledge else { return true }
            let secure = scheme.map { ["https", "https+unix"].contains($0.lowercased()) } ?? false
            return features.reusesCleartextHTTP2Connections || secure
        }
    }
}
