import Configuration
import Courier
import Foundation

@available(macOS 15.0, iOS 18.0, watchOS 11.0, tvOS 18.0, visionOS 2.0, *)
extension HTTPCache {
    /// The cache the `cache.*` keys ask for, or nil when they ask for none: a directory when
    /// `cache.directory` names one, else in memory when `cache.enabled` is true.
    static func reading(_ reader: SettingReader) throws(ConfigurationValueError) -> HTTPCache? {
        let directory = try reader.string("cache.directory", accepted: "the path of a directory this process may create and write")
        let enabled = try reader.bool("cache.enabled", default: false)
        let heuristics = try reader.bool("cache.heuristicFreshness", default: false)
        let maximumBytes = try reader.integer(
            "cache.maximumBytes", default: directory == nil ? 32 << 20 : 256 << 20, minimum: 1, accepted: "a whole number of bytes, 1 or more"
        )
        guard let directory else {
            return enabled ? HTTPCache(maximumBytes: maximumBytes, usesHeuristicFreshness: heuristics) : nil
        }
        do {
            return try HTTPCache(directory: URL(fileURLWithPath: directory, isDirectory: true), maximumBytes: maximumBytes, usesHeuristicFreshness: heuristics)
        } catch {
            throw ConfigurationValueError(
                key: reader.fullKey("cache.directory"), value: directory,
                accepted: "the path of a directory this process may create and write (\((error as? CacheDirectoryError)?.reason ?? "\(error)"))"
            )
        }
    }
}
