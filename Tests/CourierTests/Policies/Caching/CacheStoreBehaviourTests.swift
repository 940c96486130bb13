#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

@testable import Courier

/// What every store does (``CacheStoreBehaviour``), run once on each: in memory and in a
/// directory of its own.
final class CacheStoreBehaviourTests {
    enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case memory, directory
        var testDescription: String { rawValue }
    }

    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-cache-behaviour-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func make(_ store: Store) -> CacheStoreBehaviour.MakeStore {
        switch store {
        case .memory:
            return { MemoryCacheStore(maximumBytes: $0) }
        case .directory:
            return { [root] in try DiskCacheStore(directory: root.appendingPathComponent(UUID().uuidString), maximumBytes: $0) }
        }
    }

    @Test(arguments: Store.allCases) func headsBodiesAndVariantsRoundTrip(_ store: Store) throws {
        try CacheStoreBehaviour.headsBodiesAndVariantsRoundTrip(make(store))
    }

    @Test(arguments: Store.allCases) func committingAVariantReplacesIt(_ store: Store) throws {
        try CacheStoreBehaviour.committingAVariantReplacesIt(make(store))
    }

    @Test(arguments: Store.allCases) func updateReplacesTheHeadAndKeepsTheBody(_ store: Store) throws {
        try CacheStoreBehaviour.updateReplacesTheHeadAndKeepsTheBody(make(store))
    }

    @Test(arguments: Store.allCases) func theLeastRecentlyUsedEntryIsEvictedFirst(_ store: Store) throws {
        try CacheStoreBehaviour.theLeastRecentlyUsedEntryIsEvictedFirst(make(store))
    }

    @Test(arguments: Store.allCases) func theBoundHoldsAfterEveryCommit(_ store: Store) throws {
        try CacheStoreBehaviour.theBoundHoldsAfterEveryCommit(make(store))
    }

    @Test(arguments: Store.allCases) func aBodyThatFitsTheBoundIsKept(_ store: Store) throws {
        try CacheStoreBehaviour.aBodyThatFitsTheBoundIsKept(make(store))
    }

    @Test(arguments: Store.allCases) func aBodyOverTheBoundIsNotKept(_ store: Store) throws {
        try CacheStoreBehaviour.aBodyOverTheBoundIsNotKept(make(store))
    }

    @Test(arguments: Store.allCases) func anAbandonedBodyIsNeverVisible(_ store: Store) throws {
        try CacheStoreBehaviour.anAbandonedBodyIsNeverVisible(make(store))
    }

    @Test(arguments: Store.allCases) func removeTakesEveryVariantOfAKeyAndRemoveAllEverything(_ store: Store) throws {
        try CacheStoreBehaviour.removeTakesEveryVariantOfAKeyAndRemoveAllEverything(make(store))
    }

    @Test(arguments: Store.allCases) func aReaderKeepsItsBodyWhenTheEntryIsReplaced(_ store: Store) throws {
        try CacheStoreBehaviour.aReaderKeepsItsBodyWhenTheEntryIsReplaced(make(store))
    }

    @Test(arguments: Store.allCases) func concurrentWritersAndReadersSeeWholeBodies(_ store: Store) async throws {
        try await CacheStoreBehaviour.concurrentWritersAndReadersSeeWholeBodies(make(store))
    }
}
