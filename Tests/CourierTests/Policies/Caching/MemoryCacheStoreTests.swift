#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

@testable import Courier

/// The in-memory store: what is its own (the shared behaviour is in `CacheStoreBehaviourTests`).
struct MemoryCacheStoreTests {
    @Test func anEntryRemovedBeforeItsBodyIsOpenedIsAMiss() throws {
        let store = MemoryCacheStore(maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(Data([1, 2, 3]), in: store, key: CacheStoreBehaviour.key("a"))
        let entry = try #require(store.entries(for: CacheStoreBehaviour.key("a")).first)
        store.removeAll()
        // A new entry stored after removeAll never answers for an id listed before it.
        CacheStoreBehaviour.put(Data([4, 5, 6]), in: store, key: CacheStoreBehaviour.key("a"))
        #expect(store.openBody(of: entry) == nil)
    }

    @Test func aHeadThatOutgrowsTheBoundOnUpdateIsEvicted() throws {
        let store = MemoryCacheStore(maximumBytes: 2000)
        CacheStoreBehaviour.put(Data(count: 1000), in: store, key: CacheStoreBehaviour.key("a"))
        let entry = try #require(store.entries(for: CacheStoreBehaviour.key("a")).first)
        store.update(entry, to: CacheStoreBehaviour.response([("X-Large", String(repeating: "x", count: 1500))]))
        #expect(store.storedBytes <= 2000)
        #expect(store.entries(for: CacheStoreBehaviour.key("a")).isEmpty)
    }
}
