import Configuration
import Courier

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension URLSessionTransport.Configuration: EngineSettings {
    /// Reads the URLSession engine's settings from the `urlsession` keys of `config`, and the
    /// shared policies as ``Courier/Policies/init(config:)`` does; an absent key keeps the
    /// default of `URLSessionTransport.Configuration()`.
    ///
    /// Keys are relative to `config`, which the caller scopes (conventionally
    /// `config.scoped(to: "courier")`):
    ///
    /// | Key | Type | Default | Accepted | Sets |
    /// |---|---|---|---|---|
    /// | `urlsession.maximumConnectionsPerHost` | int | `6` | 1 or more | `maximumConnectionsPerHost` |
    /// | `urlsession.contentDecoding` | string | `all` | `identityOnly`, `all` | `contentDecoding` |
    /// | `urlsession.maximumUnreadBytes` | int | `67108864` (64 MiB) | 1 or more | `maximumUnreadBytes` |
    /// | `redirects.*`, `timeouts.*`, `limits.*`, `userAgent`, … | | | see ``Courier/Policies/init(config:)`` | `policies` |
    ///
    /// A list is an array in a file and comma-separated in the environment, so in the
    /// environment a header value cannot itself hold a comma (use a file, or give
    /// `EnvironmentVariablesProvider` another `arraySeparator`). The headers are read as a
    /// secret, since they may carry credentials: access logs redact them and errors never quote
    /// them.
    ///
    /// - Throws: ``ConfigurationValueError`` naming the full key, the value and what the key
    ///   accepts, when a value is of the wrong type or out of range.
    public init(config: ConfigReader) throws(ConfigurationValueError) {
        self.init()
        try read(config, engine: "urlsession")
    }

    mutating func readOwnKeys(_ reader: SettingReader) throws(ConfigurationValueError) {
        let decodingAccepted = "identityOnly, all"
        if let name = try reader.string("urlsession.contentDecoding", accepted: decodingAccepted) {
            switch name.lowercased() {
            case "identityonly": contentDecoding = .identityOnly
            case "all": contentDecoding = .all
            default: throw reader.error("urlsession.contentDecoding", value: name, accepted: decodingAccepted)
            }
        }
        maximumUnreadBytes = try reader.integer(
            "urlsession.maximumUnreadBytes",
            default: maximumUnreadBytes,
            minimum: 1,
            accepted: "a whole number of bytes, 1 or more"
        )
    }
}
