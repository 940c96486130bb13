#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

@testable import Courier

/// What every ``CacheStore`` does, written once and run by `CacheStoreBehaviourTests` on each
/// store, made with the bound asked for.
enum CacheStoreBehaviour {
    typealias MakeStore = (_ maximumBytes: Int) throws -> any CacheStore

    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func key(_ path: String, method: String = "GET") -> CacheKey {
        CacheKey(method: method, url: "http://127.0.0.1/\(path)")
    }

    static func response(status: Int = 200, _ fields: [(String, String)] = [], varying: [String: String?] = [:]) -> StoredResponse {
        StoredResponse(
            statusCode: status, headerFields: fields.map { StoredField(name: $0.0, value: $0.1) }, url: "http://127.0.0.1/answer",
            httpVersionMajor: 1, httpVersionMinor: 1, varyingRequestFields: varying, requestTime: start, responseTime: start + 0.25
        )
    }

    /// `count` bytes that differ by `seed`, so that a body mixed from two writes shows.
    static func body(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31) &+ seed })
    }

    /// Stores `body` in chunks of at most `chunk` bytes and commits; false when the store would
    /// not take it.
    @discardableResult
    static func put(_ body: Data, in store: any CacheStore, key: CacheKey, variant: String = "", response: StoredResponse = response(), chunk: Int = 1000) -> Bool {
        guard let writer = store.beginStoring(response, for: key, variant: variant, expectedLength: body.count) else { return false }
        var offset = body.startIndex
        while offset < body.endIndex {
            let end = min(offset + chunk, body.endIndex)
            guard writer.write(Data(body[offset..<end])) else { return false }
            offset = end
        }
        writer.commit()
        return true
    }

    /// The whole body of `entry`, read in chunks of 777 bytes; nil when the store has it no more.
    static func read(_ entry: CacheEntry, in store: any CacheStore) throws -> Data? {
        guard let reader = store.openBody(of: entry) else { return nil }
        defer { reader.close() }
        var data = Data()
        while let chunk = try reader.read(upTo: 777) {
            #expect(chunk.count <= 777)
            data.append(chunk)
        }
        return data
    }

    // MARK: Cases

    static func headsBodiesAndVariantsRoundTrip(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        let head = response(status: 203, [("ETag", "\"v1\""), ("Vary", "Accept"), ("X-Twice", "a"), ("X-Twice", "b")], varying: ["accept": "text/plain", "cookie": nil])
        #expect(put(body(5000, seed: 1), in: store, key: key("a"), variant: "accept=text/plain", response: head))
        #expect(put(body(300, seed: 2), in: store, key: key("a"), variant: "accept=application/json"))
        #expect(put(Data(), in: store, key: key("a", method: "HEAD")))

        let entries = store.entries(for: key("a"))
        #expect(entries.map(\.variant) == ["accept=application/json", "accept=text/plain"])
        let plain = try #require(entries.first { $0.variant == "accept=text/plain" })
        #expect(plain.response == head)
        #expect(plain.bodyLength == 5000)
        #expect(try read(plain, in: store) == body(5000, seed: 1))
        #expect(try read(entries[0], in: store) == body(300, seed: 2))

        let headEntries = store.entries(for: key("a", method: "HEAD"))
        #expect(headEntries.count == 1)
        #expect(try headEntries.first.flatMap { try read($0, in: store) } == Data())
        #expect(store.entries(for: key("b")).isEmpty)
    }

    static func committingAVariantReplacesIt(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        put(body(4000, seed: 1), in: store, key: key("a"), variant: "v", response: response([("ETag", "\"1\"")]))
        let old = try #require(store.entries(for: key("a")).first)
        let before = store.storedBytes
        put(body(4000, seed: 9), in: store, key: key("a"), variant: "v", response: response([("ETag", "\"2\"")]))
        let entries = store.entries(for: key("a"))
        #expect(entries.count == 1)
        #expect(entries.first?.response.headerFields == [StoredField(name: "ETag", value: "\"2\"")])
        #expect(try entries.first.flatMap { try read($0, in: store) } == body(4000, seed: 9))
        // The replaced body is gone with its entry, not kept beside it (a head's size may
        // differ by the digits of its dates).
        #expect(abs(store.storedBytes - before) < 100)
        #expect(try read(old, in: store) == nil)
    }

    static func updateReplacesTheHeadAndKeepsTheBody(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        put(body(6000, seed: 3), in: store, key: key("a"), response: response([("ETag", "\"1\""), ("Cache-Control", "max-age=1")]))
        let entry = try #require(store.entries(for: key("a")).first)
        var freshened = response([("ETag", "\"1\""), ("Cache-Control", "max-age=600")])
        freshened.responseTime = start + 100
        store.update(entry, to: freshened)
        let updated = try #require(store.entries(for: key("a")).first)
        #expect(updated.response == freshened)
        #expect(updated.bodyLength == 6000)
        #expect(try read(updated, in: store) == body(6000, seed: 3))
        // An entry replaced meanwhile is not freshened by a 304 meant for the old one.
        put(body(10, seed: 4), in: store, key: key("a"), response: response([("ETag", "\"2\"")]))
        store.update(entry, to: freshened)
        #expect(store.entries(for: key("a")).first?.response.headerFields == [StoredField(name: "ETag", value: "\"2\"")])
    }

    /// Three entries fit and a fourth does not: the least recently read or stored goes.
    static func theLeastRecentlyUsedEntryIsEvictedFirst(_ make: MakeStore) throws {
        let probe = try make(1 << 20)
        put(body(2000, seed: 0), in: probe, key: key("x"))
        let entryBytes = probe.storedBytes
        let store = try make(entryBytes * 7 / 2)
        for name in ["a", "b", "c"] { #expect(put(body(2000, seed: 1), in: store, key: key(name))) }
        #expect(store.entries(for: key("a")).count == 1)
        let a = try #require(store.entries(for: key("a")).first)
        #expect(try read(a, in: store) != nil)
        put(body(2000, seed: 2), in: store, key: key("d"))
        #expect(store.entries(for: key("b")).isEmpty)
        for name in ["a", "c", "d"] { #expect(store.entries(for: key(name)).count == 1, "\(name) was evicted") }
        #expect(store.storedBytes <= entryBytes * 7 / 2)
    }

    static func theBoundHoldsAfterEveryCommit(_ make: MakeStore) throws {
        let bound = 20_000
        let store = try make(bound)
        for round in 0..<40 {
            put(body(500 + round * 137 % 4000, seed: UInt8(round)), in: store, key: key("k\(round % 9)"), variant: "v\(round % 2)")
            #expect(store.storedBytes <= bound)
            #expect(store.storedBytes > 0)
        }
    }

    /// A body that fits the bound with its head is kept, even when every other entry has to go.
    static func aBodyThatFitsTheBoundIsKept(_ make: MakeStore) throws {
        let store = try make(10_000)
        put(body(1000, seed: 1), in: store, key: key("old"))
        #expect(put(body(9000, seed: 2), in: store, key: key("large")))
        #expect(try store.entries(for: key("large")).first.flatMap { try read($0, in: store) } == body(9000, seed: 2))
        #expect(store.entries(for: key("old")).isEmpty)
        #expect(store.storedBytes <= 10_000)
    }

    static func aBodyOverTheBoundIsNotKept(_ make: MakeStore) throws {
        let store = try make(10_000)
        put(body(1000, seed: 1), in: store, key: key("kept"))
        let before = store.storedBytes
        // Known from Content-Length: refused before a byte is written.
        #expect(store.beginStoring(response(), for: key("big"), variant: "", expectedLength: 10_001) == nil)
        // Not known: refused once it grows past the bound, and then commit does nothing.
        let writer = try #require(store.beginStoring(response(), for: key("big"), variant: "", expectedLength: nil))
        #expect(writer.write(body(6000, seed: 2)))
        #expect(!writer.write(body(6000, seed: 3)))
        #expect(!writer.write(body(1, seed: 3)))
        writer.commit()
        #expect(store.entries(for: key("big")).isEmpty)
        #expect(store.storedBytes == before)
        #expect(store.entries(for: key("kept")).count == 1)
    }

    static func anAbandonedBodyIsNeverVisible(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        let writer = try #require(store.beginStoring(response(), for: key("a"), variant: "", expectedLength: nil))
        writer.write(body(3000, seed: 1))
        writer.abandon()
        writer.commit()
        #expect(store.entries(for: key("a")).isEmpty)
        #expect(store.storedBytes == 0)
        // A writer dropped unfinished is abandoned too.
        do {
            let dropped = store.beginStoring(response(), for: key("b"), variant: "", expectedLength: nil)
            dropped?.write(body(10, seed: 1))
        }
        #expect(store.entries(for: key("b")).isEmpty)
    }

    static func removeTakesEveryVariantOfAKeyAndRemoveAllEverything(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        put(body(100, seed: 1), in: store, key: key("a"), variant: "1")
        put(body(100, seed: 1), in: store, key: key("a"), variant: "2")
        put(body(100, seed: 1), in: store, key: key("b"))
        store.remove(key("a"))
        #expect(store.entries(for: key("a")).isEmpty)
        #expect(store.entries(for: key("b")).count == 1)
        store.removeAll()
        #expect(store.entries(for: key("b")).isEmpty)
        #expect(store.storedBytes == 0)
        #expect(put(body(100, seed: 1), in: store, key: key("c")))
        #expect(store.entries(for: key("c")).count == 1)
    }

    /// A reader keeps reading the body it opened while the entry is replaced and removed.
    static func aReaderKeepsItsBodyWhenTheEntryIsReplaced(_ make: MakeStore) throws {
        let store = try make(1 << 20)
        put(body(9000, seed: 1), in: store, key: key("a"))
        let entry = try #require(store.entries(for: key("a")).first)
        let reader = try #require(store.openBody(of: entry))
        defer { reader.close() }
        var read = try #require(try reader.read(upTo: 1000))
        put(body(9000, seed: 2), in: store, key: key("a"))
        store.removeAll()
        while let chunk = try reader.read(upTo: 1000) { read.append(chunk) }
        #expect(read == body(9000, seed: 1))
        reader.close()
        #expect(throws: CacheReadError.self) { try reader.read(upTo: 10) }
    }

    /// Writers of several variants of one key and readers of it at once: every body read is
    /// the whole body its head describes, or the read is a miss.
    static func concurrentWritersAndReadersSeeWholeBodies(_ make: MakeStore) async throws {
        let store = try make(200_000)
        let (whole, _) = await withTaskGroup(of: (Int, Int).self) { group in
            for task in 0..<8 {
                group.addTask {
                    var (whole, misses) = (0, 0)
                    for round in 0..<60 {
                        let seed = UInt8(truncatingIfNeeded: task * 60 + round)
                        let length = 1000 + (task * 7919 + round * 104_729) % 30_000
                        if round % 2 == task % 2 {
                            put(body(length, seed: seed), in: store, key: key("shared"), variant: "v\(round % 3)",
                                response: response([("X-Seed", "\(seed)"), ("X-Length", "\(length)")]), chunk: 4096)
                        } else {
                            for entry in store.entries(for: key("shared")) {
                                let fields = Dictionary(entry.response.headerFields.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
                                guard let seed = fields["X-Seed"].flatMap(UInt8.init), let length = fields["X-Length"].flatMap(Int.init),
                                    let data = try? read(entry, in: store)
                                else {
                                    misses += 1
                                    continue
                                }
                                #expect(data == body(length, seed: seed), "a body read did not match its head")
                                whole += 1
                            }
                        }
                    }
                    return (whole, misses)
                }
            }
            return await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        #expect(whole > 0)
        #expect(store.storedBytes <= 200_000)
    }
}
