import Foundation
import Testing

@testable import Courier

/// `Locked` keeps its value and mutex in one object: copies must share both, updates from many
/// threads must all land, and the value must be released with the last copy.
@Suite struct LockedTests {
    @Test func copiesShareOneValue() {
        let original = Locked(0)
        let copy = original
        copy.withLock { $0 += 1 }
        #expect(original.withLock { $0 } == 1)
    }

    @Test func concurrentUpdatesAllLand() async {
        let counter = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
                }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func theValueIsReleasedWithTheLastCopy() {
        final class Tracked: Sendable {}
        weak var tracked: Tracked?
        do {
            let value = Tracked()
            tracked = value
            let locked = Locked(value)
            let copy = locked
            _ = copy.withLock { $0 }
            #expect(tracked != nil)
        }
        #expect(tracked == nil)
    }
}
