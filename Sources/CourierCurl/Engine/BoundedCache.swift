import Courier

/// Values made once per key and shared, for what the engine would otherwise make on every
/// request from a handful of distinct inputs (header lists, connection groups).
///
/// Bounded: once `capacity` keys are stored, a value for another key is made for its caller
/// alone, so a client whose input varies on every request costs what it did without the cache
/// and no memory grows.
final class BoundedCache<Key: Hashable, Value>: @unchecked Sendable {
    // @unchecked: every access to `values` goes through its lock, and callers store only
    // Sendable values (the header lists are immutable, the groups are strings).
    let capacity: Int
    private let values = Locked<[Key: Value]>([:])

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The value stored for `key`, or the one `make` returns, stored under `stored(key)` while
    /// there is room. `make` runs outside the lock: two callers may race to make the same
    /// value, and the first stored wins.
    func value<Failure: Error>(
        for key: Key, storedAs stored: (Key) -> Key = { $0 }, make: () throws(Failure) -> Value
    ) throws(Failure) -> Value {
        if let cached = values.withLock({ $0[key] }) { return cached }
        let made = try make()
        return values.withLock { values in
            if let cached = values[key] { return cached }
            guard values.count < capacity else { return made }
            values[stored(key)] = made
            return made
        }
    }

    /// Keys stored, for tests.
    var count: Int { values.withLock { $0.count } }
}
