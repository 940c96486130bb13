import Configuration
import Courier

/// What every engine's configuration reads alike: the shared policies, then its connection limit
/// under its own key (`<engine>.maximumConnectionsPerHost`), then the keys only it has.
///
/// Each engine's public `init(config:)` is `self.init()` then ``read(_:engine:)``, so a key that
/// all engines take is added here once and reads the same way for each.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
protocol EngineSettings {
    var policies: Policies { get set }
    var maximumConnectionsPerHost: Int { get set }
    /// Reads the keys only this engine has; an absent key keeps the current value.
    mutating func readOwnKeys(_ reader: SettingReader) throws(ConfigurationValueError)
}

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension EngineSettings {
    /// Reads every key of the engine named `engine` (`curl`, `urlsession`) over the current values.
    mutating func read(_ config: ConfigReader, engine: String) throws(ConfigurationValueError) {
        policies = try Policies(config: config)
        let reader = SettingReader(config)
        maximumConnectionsPerHost = try reader.integer(
            ConfigKey([engine, "maximumConnectionsPerHost"]),
            default: maximumConnectionsPerHost,
            minimum: 1,
            accepted: "a whole number, 1 or more"
        )
        try readOwnKeys(reader)
    }
}
