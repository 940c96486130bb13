#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A ``CacheStore`` in memory: at most `maximumBytes` of heads and bodies, the least recently
/// used entries evicted first when a new one would not fit.
package final class MemoryCacheStore: CacheStore {
    /// The most bytes kept at once, heads and bodies.
    package let maximumBytes: Int
    private let state = Locked(State())

    package init(maximumBytes: Int) {
        self.maximumBytes = max(0, maximumBytes)
    }

    private struct Item {
        var key: CacheKey
        var entry: CacheEntry
        var body: Data
        var headBytes: Int
        /// A tick of the store's clock, larger for later use.
        var lastUse: UInt64
        var bytes: Int { headBytes + body.count }
    }

    private struct State {
        var items: [String: Item] = [:]
        /// Each key's entry ids, most recently stored first.
        var ids: [CacheKey: [String]] = [:]
        var storedBytes = 0
        var clock: UInt64 = 0
        var nextID: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }

        mutating func removeItem(_ id: String) {
            guard let item = items.removeValue(forKey: id) else { return }
            storedBytes -= item.bytes
            ids[item.key]?.removeAll { $0 == id }
            if ids[item.key]?.isEmpty == true { ids[item.key] = nil }
        }

        /// Evicts the least recently used items until at most `maximumBytes` are held.
        mutating func evict(toFit maximumBytes: Int) {
            guard storedBytes > maximumBytes else { return }
            for (id, _) in items.map({ ($0.key, $0.value.lastUse) }).sorted(by: { $0.1 < $1.1 }) {
                guard storedBytes > maximumBytes else { return }
                removeItem(id)
            }
        }
    }

    package func entries(for key: CacheKey) -> [CacheEntry] {
        state.withLock { state in (state.ids[key] ?? []).compactMap { state.items[$0]?.entry } }
    }

    package func openBody(of entry: CacheEntry) -> (any CacheBodyReader)? {
        let body: Data? = state.withLock { state in
            guard state.items[entry.id] != nil else { return nil }
            let tick = state.tick()
            state.items[entry.id]?.lastUse = tick
            return state.items[entry.id]?.body
        }
        return body.map(MemoryCacheBodyReader.init)
    }

    package func beginStoring(_ response: StoredResponse, for key: CacheKey, variant: String, expectedLength: Int?) -> (any CacheBodyWriter)? {
        let headBytes = Self.headBytes(of: response, key: key, variant: variant)
        let bodyLimit = maximumBytes - headBytes
        guard bodyLimit >= 0, (expectedLength ?? 0) <= bodyLimit else { return nil }
        return MemoryCacheBodyWriter(bodyLimit: bodyLimit) { [self] body in
            insert(key: key, variant: variant, response: response, headBytes: headBytes, body: body)
        }
    }

    package func update(_ entry: CacheEntry, to response: StoredResponse) {
        state.withLock { state in
            guard let item = state.items[entry.id] else { return }
            let headBytes = Self.headBytes(of: response, key: item.key, variant: item.entry.variant)
            state.storedBytes += headBytes - item.headBytes
            let tick = state.tick()
            state.items[entry.id]?.entry.response = response
            state.items[entry.id]?.headBytes = headBytes
            state.items[entry.id]?.lastUse = tick
            state.evict(toFit: maximumBytes)
        }
    }

    package func remove(_ key: CacheKey) {
        state.withLock { state in
            for id in state.ids[key] ?? [] { state.removeItem(id) }
        }
    }

    package func removeAll() {
        state.withLock { $0 = State(clock: $0.clock, nextID: $0.nextID) }
    }

    package var storedBytes: Int {
        state.withLock(\.storedBytes)
    }

    /// Makes a whole body visible as the variant `variant` of `key`, replacing the one before.
    private func insert(key: CacheKey, variant: String, response: StoredResponse, headBytes: Int, body: Data) {
        state.withLock { state in
            for id in state.ids[key] ?? [] where state.items[id]?.entry.variant == variant {
                state.removeItem(id)
            }
            state.nextID += 1
            let id = "m\(state.nextID)"
            let entry = CacheEntry(id: id, variant: variant, response: response, bodyLength: body.count)
            let item = Item(key: key, entry: entry, body: body, headBytes: headBytes, lastUse: state.tick())
            state.items[id] = item
            state.ids[key, default: []].insert(id, at: 0)
            state.storedBytes += item.bytes
            state.evict(toFit: maximumBytes)
        }
    }

    /// What a head costs: its strings, and a fixed allowance for the numbers, dates and the
    /// containers that hold them.
    static func headBytes(of response: StoredResponse, key: CacheKey, variant: String) -> Int {
        var bytes = 128 + key.method.utf8.count + key.url.utf8.count + variant.utf8.count + response.url.utf8.count
        for field in response.headerFields { bytes += 16 + field.name.utf8.count + field.value.utf8.count }
        for (name, value) in response.varyingRequestFields { bytes += 16 + name.utf8.count + (value?.utf8.count ?? 0) }
        return bytes
    }
}

/// Reads a body held in memory; the store may drop or replace the entry meanwhile, as the
/// reader keeps its own reference to the bytes.
private final class MemoryCacheBodyReader: CacheBodyReader {
    private let state: Locked<(body: Data?, offset: Int)>

    init(_ body: Data) {
        state = Locked((body, 0))
    }

    func read(upTo maximumBytes: Int) throws -> Data? {
        try state.withLock { state in
            guard let body = state.body else { throw CacheReadError.closed }
            guard state.offset < body.count else { return nil }
            let start = body.startIndex + state.offset
            let end = start + min(max(1, maximumBytes), body.count - state.offset)
            state.offset += end - start
            return Data(body[start..<end])
        }
    }

    func close() {
        state.withLock { $0.body = nil }
    }
}

/// Collects a body in memory until it is committed, letting go of it once it outgrows what the
/// store keeps.
private final class MemoryCacheBodyWriter: CacheBodyWriter {
    private let bodyLimit: Int
    private let onCommit: @Sendable (Data) -> Void
    /// Nil once the writer has ended: committed, abandoned or over the limit.
    private let body = Locked<Data?>(Data())

    init(bodyLimit: Int, onCommit: @escaping @Sendable (Data) -> Void) {
        self.bodyLimit = bodyLimit
        self.onCommit = onCommit
    }

    func write(_ chunk: Data) -> Bool {
        body.withLock { body in
            guard let count = body?.count else { return false }
            guard chunk.count <= bodyLimit - count else {
                body = nil
                return false
            }
            body?.append(chunk)
            return true
        }
    }

    func commit() {
        let whole = body.withLock { body in
            defer { body = nil }
            return body
        }
        if let whole { onCommit(whole) }
    }

    func abandon() {
        body.withLock { $0 = nil }
    }
}
