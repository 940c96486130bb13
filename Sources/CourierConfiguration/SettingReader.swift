import Configuration

/// Reads Courier's settings from a `ConfigReader`, telling an absent key (take the default) from
/// one whose value is unusable (throw, naming the full key and what it accepts).
///
/// swift-configuration's optional getters return `nil` for both, and its typed errors are not
/// public, so a value is looked up by the type Courier wants first and, only when that finds
/// nothing, looked up again as every other type to learn whether something unusable is there.
@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
struct SettingReader {
    let config: ConfigReader
    /// The reader's scope, e.g. `courier`, or `nil` for the root.
    private let scope: String?

    init(_ config: ConfigReader) {
        self.config = config
        scope = Self.scope(of: config)
    }

    /// `key` as a person writes it in a file: the reader's scope, then the key.
    func fullKey(_ key: ConfigKey) -> String {
        guard let scope else { return key.description }
        return "\(scope).\(key)"
    }

    /// A whole number of at least `minimum`; a number with a fraction is refused, not rounded.
    func integer(
        _ key: ConfigKey, default defaultValue: Int, minimum: Int, maximum: Int = .max, accepted: String
    ) throws(ConfigurationValueError) -> Int {
        let found: Int?
        if let int = config.int(forKey: key) {
            found = int
        } else if let double = config.double(forKey: key) {
            // Providers that keep every number as a double (and a "5.0" in the environment).
            guard let int = Int(exactly: double) else { throw error(key, value: String(double), accepted: accepted) }
            found = int
        } else {
            found = nil
        }
        guard let found else {
            try refuseUnusable(key, accepted: accepted)
            return defaultValue
        }
        guard found >= minimum, found <= maximum else { throw error(key, value: String(found), accepted: accepted) }
        return found
    }

    /// A finite number of seconds, above `minimum` or, when `allowsMinimum`, equal to it; `nil`
    /// when the key is absent.
    func seconds(_ key: ConfigKey, minimum: Double, allowsMinimum: Bool, accepted: String) throws(ConfigurationValueError) -> Double? {
        // An in-memory `30` is an int; a timeout of 30 s is meant all the same.
        guard let found = config.double(forKey: key) ?? config.int(forKey: key).map(Double.init) else {
            try refuseUnusable(key, accepted: accepted)
            return nil
        }
        guard found.isFinite, found > minimum || (allowsMinimum && found == minimum) else {
            throw error(key, value: String(found), accepted: accepted)
        }
        return found
    }

    func bool(_ key: ConfigKey, default defaultValue: Bool) throws(ConfigurationValueError) -> Bool {
        if let found = config.bool(forKey: key) { return found }
        try refuseUnusable(key, accepted: "true or false")
        return defaultValue
    }

    /// A string; empty counts as absent, as an empty `COURIER_TRANSPORT` always has.
    func string(_ key: ConfigKey, isSecret: Bool = false, accepted: String) throws(ConfigurationValueError) -> String? {
        if let found = config.string(forKey: key, isSecret: isSecret) { return found.isEmpty ? nil : found }
        try refuseUnusable(key, isSecret: isSecret, accepted: accepted)
        return nil
    }

    /// A list: an array in a file, comma-separated in the environment, or a single string taken
    /// as a list of one. Each entry must pass `isValid`; empty entries are dropped.
    func list(
        _ key: ConfigKey,
        isSecret: Bool = false,
        accepted: String,
        isValid: (String) -> Bool
    ) throws(ConfigurationValueError) -> [String]? {
        let found: [String]
        if let array = config.stringArray(forKey: key, isSecret: isSecret) {
            found = array
        } else if let single = config.string(forKey: key, isSecret: isSecret) {
            found = [single]
        } else {
            try refuseUnusable(key, isSecret: isSecret, accepted: accepted)
            return nil
        }
        let entries = found.filter { !$0.isEmpty }
        if let bad = entries.first(where: { !isValid($0) }) {
            throw error(key, value: isSecret ? nil : bad, accepted: accepted)
        }
        return entries
    }

    func error(_ key: ConfigKey, value: String?, accepted: String) -> ConfigurationValueError {
        ConfigurationValueError(key: fullKey(key), value: value, accepted: accepted)
    }

    /// Throws when `key` holds a value of a type other than the one asked for; returns when the
    /// key is absent.
    func refuseUnusable(_ key: ConfigKey, isSecret: Bool = false, accepted: String) throws(ConfigurationValueError) {
        guard let raw = rawValue(key) else { return }
        throw error(key, value: isSecret ? nil : raw, accepted: accepted)
    }

    /// Whatever `key` holds, as text, whatever its type; `nil` when it holds nothing.
    func rawValue(_ key: ConfigKey) -> String? {
        // Marked secret so that an access log never shows a value Courier reads only to report.
        if let string = config.string(forKey: key, isSecret: true) { return string }
        if let double = config.double(forKey: key, isSecret: true) { return String(double) }
        if let int = config.int(forKey: key, isSecret: true) { return String(int) }
        if let bool = config.bool(forKey: key, isSecret: true) { return String(bool) }
        if let strings = config.stringArray(forKey: key, isSecret: true) { return strings.joined(separator: ",") }
        if let doubles = config.doubleArray(forKey: key, isSecret: true) { return doubles.map { String($0) }.joined(separator: ",") }
        if let ints = config.intArray(forKey: key, isSecret: true) { return ints.map { String($0) }.joined(separator: ",") }
        if let bools = config.boolArray(forKey: key, isSecret: true) { return bools.map { String($0) }.joined(separator: ",") }
        return nil
    }

    /// The scope of a reader made by `scoped(to:)`.
    ///
    /// swift-configuration keeps a reader's key prefix internal; its description,
    /// `ConfigReader[keyPrefix: courier, providers: …]`, is the one public place that shows it.
    /// Should that text change, errors name the key relative to the reader instead, and
    /// `ErrorMessageTests` fails.
    static func scope(of config: ConfigReader) -> String? {
        let description = String(describing: config)
        guard let start = description.range(of: "[keyPrefix: "),
              let end = description.range(of: ", providers: ", range: start.upperBound..<description.endIndex)
        else { return nil }
        let prefix = description[start.upperBound..<end.lowerBound]
        return prefix.isEmpty ? nil : String(prefix)
    }
}
