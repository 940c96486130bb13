import Foundation

/// A directory an ``HTTPCache`` cannot keep responses in, thrown by
/// ``HTTPCache/init(directory:maximumBytes:usesHeuristicFreshness:)`` before any request is served.
public struct CacheDirectoryError: Error, CustomStringConvertible, Sendable {
    /// The directory that was asked for.
    public let directory: URL
    /// What was wrong with it, in the system's words: `it could not be created: Permission
    /// denied`, `it is not writable: Read-only file system`; or, when a file stands where one of
    /// its parent directories should be, that file: `it could not be created: /srv/cache is not a
    /// directory`.
    public let reason: String

    package init(directory: URL, reason: String) {
        self.directory = directory
        self.reason = reason
    }

    /// `the cache directory /path cannot be used: <reason>`.
    public var description: String {
        "the cache directory \(directory.path) cannot be used: \(reason)"
    }
}
