import Configuration
import Courier
import CourierCurl

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension CurlTransport.Configuration {
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
    /// | `curl.connectTimeout` | double, seconds | `60` | 0 or more; 0 leaves only the request's `timeoutInterval` | `connectTimeout` |
    /// | `curl.verifiesPeer` | bool | `true` | `true`, `false` | `verifiesPeer` |
    /// | `curl.verifiesHost` | bool | `true` | `true`, `false` | `verifiesHost` |
    /// | `curl.caBundlePath` | string | the system's CAs | a path to a PEM bundle | `caBundlePath` |
    /// | `curl.userAgent` | string | `<process> Courier/<version>`, as URLSessionTransport | any | `userAgent` |
    /// | `curl.recordsMetrics` | bool | `true` | `true`, `false` | `recordsMetrics` |
    /// | `redirects.*`, `timeouts.*`, `limits.*` | | | see ``Courier/Policies/init(config:)`` | `policies` |
    /// | `proxy` | string, secret | no proxy | a proxy URL (`http`, `https`, `socks4`, `socks4a`, `socks5`, `socks5h`), or `environment` | `proxy` |
    /// | `proxyUser` | string, secret | none | `user:password`, with `proxy` a URL | `proxy.credentials` |
    /// | `noProxy` | string list | none | host names, addresses, CIDR ranges, `*`, with `proxy` a URL | `proxy.noProxy` |
    /// | `unixSocketPath` | string | TCP | a Unix domain socket's path | `unixSocketPath` |
    /// | `resolve` | string list | DNS | `host:port:address[,address…]`, as curl's `--resolve` | `resolve` |
    /// | `connectTo` | string list | none | `HOST:PORT:CONNECT-TO-HOST:CONNECT-TO-PORT`, as curl's `--connect-to` | `connectTo` |
    ///
    /// An empty string counts as absent. `proxy` and `proxyUser` are read as secrets, since
    /// they may carry credentials: access logs redact them and errors never quote them. The
    /// routing keys (`proxy` to `connectTo`) are not under `curl`: whichever transport is
    /// chosen must honour them, and ``Transport/makeTransport(config:)`` refuses them for
    /// `urlsession`. `curl.proxy`, their predecessor, is refused with an error naming `proxy`.
    ///
    /// - Throws: ``ConfigurationValueError`` naming the full key, the value and what the key
    ///   accepts, when a value is of the wrong type or out of range.
    public init(config: ConfigReader) throws(ConfigurationValueError) {
        self.init()
        policies = try Policies(config: config)
        let reader = SettingReader(config)
        maximumConnectionsPerHost = try reader.integer(
            "curl.maximumConnectionsPerHost",
            default: maximumConnectionsPerHost,
            minimum: 1,
            accepted: "a whole number, 1 or more"
        )
        connectTimeout = try reader.seconds(
            "curl.connectTimeout",
            minimum: 0,
            allowsMinimum: true,
            accepted: "a number of seconds, 0 or more (0 leaves only the request's timeoutInterval)"
        ) ?? connectTimeout
        verifiesPeer = try reader.bool("curl.verifiesPeer", default: verifiesPeer)
        verifiesHost = try reader.bool("curl.verifiesHost", default: verifiesHost)
        caBundlePath = try reader.string("curl.caBundlePath", accepted: "a path to a PEM file of CA certificates") ?? caBundlePath
        try RouteKeys.read(reader, into: &self)
        userAgent = try reader.string("curl.userAgent", accepted: "a User-Agent string") ?? userAgent
        recordsMetrics = try reader.bool("curl.recordsMetrics", default: recordsMetrics)
    }
}
