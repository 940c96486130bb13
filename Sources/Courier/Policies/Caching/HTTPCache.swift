#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A private HTTP cache (RFC 9111) shared by both engines: responses kept in memory or in a
/// directory, answered again while fresh and revalidated with their validators once stale.
///
/// Set it as ``Policies/cache``; one cache may serve several transports, of either engine, and
/// a directory may be shared by several processes.
public final class HTTPCache: Sendable {
    /// Where responses are kept.
    package let store: any CacheStore
    /// Whether a response with no explicit freshness may be served without revalidation for a
    /// tenth of the time since it was last modified (RFC 9111 §4.2.2).
    package let usesHeuristicFreshness: Bool
    /// The cache's clock, as wall-clock time: `Date`, `Expires` and `Last-Modified` are.
    package let now: @Sendable () -> Date

    /// A cache over `store`, reading time from `now`: for tests that move the clock.
    package init(store: any CacheStore, usesHeuristicFreshness: Bool = false, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.usesHeuristicFreshness = usesHeuristicFreshness
        self.now = now
    }

    /// Removes every stored response.
    public func removeAll() {
        store.removeAll()
    }

    /// The bytes the cache holds now, heads and bodies.
    public var storedBytes: Int {
        store.storedBytes
    }
}
