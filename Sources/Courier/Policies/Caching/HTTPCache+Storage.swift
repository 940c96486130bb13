#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension HTTPCache {
    /// A cache in memory, holding at most `maximumBytes` of response heads and bodies; the
    /// least recently used responses make room for new ones, and a body larger than the whole
    /// bound is not kept.
    ///
    /// - Parameters:
    ///   - maximumBytes: The bound, 32 MiB unless given.
    ///   - usesHeuristicFreshness: Whether a response that says nothing of its freshness is
    ///     fresh for a tenth of the time since its `Last-Modified` (RFC 9111 §4.2.2), as
    ///     browsers take it; off unless given, so such a response is revalidated on every use.
    public convenience init(maximumBytes: Int = 32 << 20, usesHeuristicFreshness: Bool = false) {
        self.init(store: MemoryCacheStore(maximumBytes: maximumBytes), usesHeuristicFreshness: usesHeuristicFreshness)
    }

    /// A cache in `directory`, holding at most `maximumBytes` of response heads and bodies
    /// there; created when missing.
    ///
    /// Responses outlive the process, and several processes may use one directory at once: each
    /// response is written whole under a temporary name and renamed into place, and the least
    /// recently used responses, by any of the processes, are evicted when a new one would not
    /// fit. Bodies stream to and from their files, so a large body is never held in memory. A
    /// file cut short, damaged or written by another version of the format is a miss and is
    /// removed. Give each cache a directory of its own: files there that the cache did not make
    /// are left alone, and `removeAll()` removes only what it made.
    ///
    /// - Parameters:
    ///   - directory: Where responses are kept; created with its parents when missing, readable
    ///     by this user only.
    ///   - maximumBytes: The bound, 256 MiB unless given.
    ///   - usesHeuristicFreshness: As for a cache in memory: off unless given.
    /// - Throws: ``CacheDirectoryError`` naming the directory when it cannot be created, is not
    ///   a directory or is not writable.
    public convenience init(directory: URL, maximumBytes: Int = 256 << 20, usesHeuristicFreshness: Bool = false) throws {
        self.init(
            store: try DiskCacheStore(directory: directory, maximumBytes: maximumBytes), usesHeuristicFreshness: usesHeuristicFreshness
        )
    }
}
