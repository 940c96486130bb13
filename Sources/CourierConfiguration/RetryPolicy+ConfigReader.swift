import Configuration
import Courier

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension RetryPolicy {
    /// The `retries.*` keys of ``Courier/Policies/init(config:)`` over `policy`: an absent key
    /// keeps its value.
    init(reading reader: SettingReader, over policy: RetryPolicy) throws(ConfigurationValueError) {
        self = policy
        maximumAttempts = try reader.integer(
            "retries.maximumAttempts",
            default: maximumAttempts,
            minimum: 1,
            accepted: "a whole number, 1 or more (1 sends every request once)"
        )
        initialDelay = try reader.seconds(
            "retries.initialDelay", minimum: 0, allowsMinimum: true, accepted: "a number of seconds, 0 or more"
        ) ?? initialDelay
        multiplier = try reader.seconds(
            "retries.multiplier", minimum: 1, allowsMinimum: true, accepted: "a number, 1 or more (1 waits the same each time)"
        ) ?? multiplier
        maximumDelay = try reader.seconds(
            "retries.maximumDelay", minimum: 0, allowsMinimum: true, accepted: "a number of seconds, 0 or more"
        ) ?? maximumDelay
        let jitterAccepted = "a fraction from 0 (no jitter) to 1 (full jitter)"
        if let jitter = try reader.seconds("retries.jitter", minimum: 0, allowsMinimum: true, accepted: jitterAccepted) {
            guard jitter <= 1 else { throw reader.error("retries.jitter", value: String(jitter), accepted: jitterAccepted) }
            self.jitter = jitter
        }
        maximumRetryTime = try reader.seconds(
            "retries.maximumTime",
            minimum: 0,
            allowsMinimum: false,
            accepted: "a number of seconds above 0 (leave the key out for no limit)"
        ) ?? maximumRetryTime
        maximumRetryAfter = try reader.seconds(
            "retries.maximumRetryAfter", minimum: 0, allowsMinimum: true, accepted: "a number of seconds, 0 or more"
        ) ?? maximumRetryAfter
        if let codes = try Self.statusCodes(reader) { retryableStatusCodes = codes }
        retriesAnyMethod = try reader.bool("retries.anyMethod", default: retriesAnyMethod)
    }

    /// `retries.statusCodes`: whole numbers in a file, comma-separated in the environment.
    private static func statusCodes(_ reader: SettingReader) throws(ConfigurationValueError) -> Set<Int>? {
        let key: ConfigKey = "retries.statusCodes"
        let accepted = "a list of status codes, each 100...599"
        if let ints = reader.config.intArray(forKey: key) {
            guard let bad = ints.first(where: { !(100...599).contains($0) }) else { return Set(ints) }
            throw reader.error(key, value: String(bad), accepted: accepted)
        }
        let isCode = { (text: String) in Int(text.trimmingCharacters(in: .whitespaces)).map { (100...599).contains($0) } ?? false }
        guard let texts = try reader.list(key, accepted: accepted, isValid: isCode) else { return nil }
        return Set(texts.compactMap { Int($0.trimmingCharacters(in: .whitespaces)) })
    }
}
