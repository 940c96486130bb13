import Configuration
import Courier
import CourierCurl

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension CurlTransport.Configuration: EngineSettings {
    /// Reads the libcurl engine's settings from the `curl` keys of `config`, and the shared
    /// policies as ``Courier/Policies/init(config:)`` does; an absent key keeps the default of
    /// `CurlTransport.Configuration()`.
    ///
    /// Keys are relative to `config`, which the caller scopes (conventionally
    /// `config.scoped(to: "courier")`):
    ///
    /// | Key | Type | Default | Accepted | Sets |
    /// |---|---|---|---|---|
    /// | `curl.maximumConnectionsPerHost` | int | `6` | 1 or more | `maximumConnectionsPerHost` |
    /// | `curl.verifiesPeer` | bool | `true` | `true`, `false` | `verifiesPeer` (the chain and the host name) |
    /// | `curl.caBundlePath` | string | the system's CAs | a path to a PEM bundle | `caBundlePath` |
    /// | `curl.recordsMetrics` | bool | `true` | `true`, `false` | `recordsMetrics` |
    /// | `curl.caDirectoryPath` | string | none | a directory of CA certificates named by hash (`openssl rehash`) | `caDirectoryPath` |
    /// | `curl.maximumConcurrentStreams` | int | `100` | 1 or more | `maximumConcurrentStreamsPerConnection` |
    /// | `curl.eventLoopCount` | int | half the cores, at least 1 | 1 to 256 | `eventLoopCount` |
    /// | `http.version` | string | `automatic` | `automatic`, `http1.1`, `http2-prior-knowledge`, `http3`, `http3-only` | `httpVersion` |
    /// | `tls.clientCertificate` | string | none | a path to a PEM certificate (and its key, unless `tls.privateKey` is set) | `clientCertificate` |
    /// | `tls.privateKey` | string | none | a path to a PEM private key | `clientCertificate` |
    /// | `tls.privateKeyPassphrase` | string, secret | none | the key's passphrase | `clientCertificate` |
    /// | `tls.pinnedPublicKey` | string | none | `sha256//<base64>`, several joined by `;`, or a path to a public key | `pinnedPublicKey` |
    /// | `tls.minimumVersion` | string | `1.2` | `1.2`, `1.3` | `minimumTLSVersion` |
    /// | `redirects.*`, `timeouts.*`, `limits.*` | | | see ``Courier/Policies/init(config:)`` | `policies` |
    /// | `proxy` | string, secret | no proxy | a proxy URL (`http`, `https`, `socks4`, `socks4a`, `socks5`, `socks5h`), or `environment` | `proxy` |
    /// | `proxyUser` | string, secret | none | `user:password`, with `proxy` a URL | `proxy.credentials` |
    /// | `noProxy` | string list | none | host names, addresses, CIDR ranges, `*`, with `proxy` a URL | `proxy.noProxy` |
    /// | `unixSocketPath` | string | TCP | a Unix domain socket's path | `unixSocketPath` |
    /// | `resolve` | string list | DNS | `host:port:address[,address…]`, as curl's `--resolve` | `resolve` |
    /// | `connectTo` | string list | none | `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`, as curl's `--connect-to` | `connectTo` |
    /// | `dohURL` | string | the system's resolver | an `https` URL of a DNS-over-HTTPS server, as curl's `--doh-url` | `dohURL` |
    ///
    /// The `http` and `tls` keys are shared: `URLSessionTransport` cannot honour them, and
    /// ``TransportKind/makeTransport(config:)`` refuses a configuration that asks it to with
    /// `RequestError.unsupportedOption`. A passphrase without a certificate, or a key without
    /// one, is an error rather than ignored.
    ///
    /// An empty string counts as absent. `proxy` and `proxyUser` are read as secrets, since
    /// they may carry credentials: access logs redact them and errors never quote them. The
    /// routing keys (`proxy` to `dohURL`) are not under `curl`: whichever transport is
    /// chosen must honour them, and ``TransportKind/makeTransport(config:)`` refuses them for
    /// `urlsession`. `curl.proxy`, their predecessor, is refused with an error naming `proxy`,
    /// and `curl.verifiesHost`, now part of `curl.verifiesPeer`, with one naming that key.
    ///
    /// - Throws: ``ConfigurationValueError`` naming the full key, the value and what the key
    ///   accepts, when a value is of the wrong type or out of range.
    public init(config: ConfigReader) throws(ConfigurationValueError) {
        self.init()
        try read(config, engine: "curl")
    }

    mutating func readOwnKeys(_ reader: SettingReader) throws(ConfigurationValueError) {
        // The host-name check is part of verifiesPeer now; a configuration that still turns it
        // off must not find verification on without a word.
        if let legacy = reader.rawValue("curl.verifiesHost"), !legacy.isEmpty {
            throw reader.error("curl.verifiesHost", value: legacy, accepted: "nothing: \(reader.fullKey("curl.verifiesPeer")) checks the host name too")
        }
        verifiesPeer = try reader.bool("curl.verifiesPeer", default: verifiesPeer)
        caBundlePath = try reader.string("curl.caBundlePath", accepted: "a path to a PEM file of CA certificates") ?? caBundlePath
        try RouteKeys.read(reader, into: &self)
        recordsMetrics = try reader.bool("curl.recordsMetrics", default: recordsMetrics)
        try readHTTPVersionAndTLS(reader)
    }

    /// The HTTP/2 and TLS identity keys.
    private mutating func readHTTPVersionAndTLS(_ reader: SettingReader) throws(ConfigurationValueError) {
        caDirectoryPath = try reader.string("curl.caDirectoryPath", accepted: "a path to a directory of CA certificates") ?? caDirectoryPath
        maximumConcurrentStreamsPerConnection = try reader.integer(
            "curl.maximumConcurrentStreams",
            default: maximumConcurrentStreamsPerConnection,
            minimum: 1,
            accepted: "a whole number, 1 or more"
        )
        eventLoopCount = try reader.integer(
            "curl.eventLoopCount", default: eventLoopCount, minimum: 1, maximum: 256, accepted: "a whole number, 1 to 256"
        )
        let versions = "automatic, http1.1, http2-prior-knowledge, http3, http3-only"
        if let name = try reader.string("http.version", accepted: versions) {
            guard let version = CurlTransport.HTTPVersionPreference(name: name) else {
                throw reader.error("http.version", value: name, accepted: versions)
            }
            httpVersion = version
        }
        let certificate = try reader.string("tls.clientCertificate", accepted: "a path to a PEM certificate")
        let key = try reader.string("tls.privateKey", accepted: "a path to a PEM private key")
        let passphrase = try reader.string("tls.privateKeyPassphrase", isSecret: true, accepted: "the private key's passphrase")
        if let certificate {
            clientCertificate = CurlTransport.ClientCertificate(certificatePath: certificate, privateKeyPath: key, passphrase: passphrase)
        } else if let key {
            throw reader.error("tls.privateKey", value: key, accepted: "a path to a PEM private key, with tls.clientCertificate set")
        } else if passphrase != nil {
            throw ConfigurationValueError(
                key: reader.fullKey("tls.privateKeyPassphrase"), value: nil, accepted: "the private key's passphrase, with tls.clientCertificate set"
            )
        }
        pinnedPublicKey = try reader.string("tls.pinnedPublicKey", accepted: "sha256//<base64>, several joined by ;, or a path to a public key") ?? pinnedPublicKey
        if let name = try reader.string("tls.minimumVersion", accepted: "1.2, 1.3") {
            guard let version = CurlTransport.TLSVersion(name: name) else {
                throw reader.error("tls.minimumVersion", value: name, accepted: "1.2, 1.3")
            }
            minimumTLSVersion = version
        }
    }
}
