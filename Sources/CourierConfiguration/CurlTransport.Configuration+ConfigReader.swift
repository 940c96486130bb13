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
    /// | `curl.proxy` | string, secret | no proxy | a proxy URL, e.g. `http://proxy:3128` | `proxy` |
    /// | `curl.userAgent` | string | `<process> Courier/<version>`, as URLSessionTransport | any | `userAgent` |
    /// | `curl.recordsMetrics` | bool | `true` | `true`, `false` | `recordsMetrics` |
    /// | `redirects.*`, `timeouts.*`, `limits.*` | | | see ``Courier/Policies/init(config:)`` | `policies` |
    ///
    /// An empty string counts as absent. `curl.proxy` is read as a secret, since a proxy URL
    /// may carry credentials: access logs redact it and errors never quote it.
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
        proxy = try reader.string("curl.proxy", isSecret: true, accepted: "a proxy URL such as http://proxy:3128") ?? proxy
        userAgent = try reader.string("curl.userAgent", accepted: "a User-Agent string") ?? userAgent
        recordsMetrics = try reader.bool("curl.recordsMetrics", default: recordsMetrics)
    }
}
