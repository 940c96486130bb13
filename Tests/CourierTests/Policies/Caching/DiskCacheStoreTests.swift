#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing

@testable import Courier

/// The directory store: what the disk brings (files damaged or removed under it, a second
/// store on the same directory, left-over files); the shared behaviour is in
/// `CacheStoreBehaviourTests`.
final class DiskCacheStoreTests {
    private let root = FileManager.default.temporaryDirectory.appendingPathComponent("courier-disk-cache-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    private func directory(_ name: String = UUID().uuidString) -> URL {
        root.appendingPathComponent(name)
    }

    private func key(_ path: String) -> CacheKey { CacheStoreBehaviour.key(path) }

    /// Every file under `url`, relative to it, the lock file aside.
    private func files(in url: URL) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: url.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.appendingPathComponent(path).path, isDirectory: &isDirectory), !isDirectory.boolValue,
                path != ".lock" {
                files.append(path)
            }
        }
        return files.sorted()
    }

    // MARK: Files

    @Test func entriesOutliveTheStoreThatWroteThem() throws {
        let url = directory()
        let head = CacheStoreBehaviour.response([("ETag", "\"x\"")], varying: ["accept": nil])
        do {
            let store = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
            CacheStoreBehaviour.put(CacheStoreBehaviour.body(70_000, seed: 5), in: store, key: key("a"), variant: "accept=", response: head)
        }
        let reopened = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
        let entry = try #require(reopened.entries(for: key("a")).first)
        #expect(entry.response == head)
        #expect(entry.variant == "accept=")
        #expect(try CacheStoreBehaviour.read(entry, in: reopened) == CacheStoreBehaviour.body(70_000, seed: 5))
    }

    @Test func nothingIsLeftInTheTemporaryDirectory() throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 10_000)
        let abandoned = try #require(store.beginStoring(CacheStoreBehaviour.response(), for: key("a"), variant: "", expectedLength: nil))
        abandoned.write(Data(count: 100))
        #expect(files(in: url).filter { $0.hasPrefix(".tmp/") }.count == 1)
        abandoned.abandon()
        let over = try #require(store.beginStoring(CacheStoreBehaviour.response(), for: key("b"), variant: "", expectedLength: nil))
        over.write(Data(count: 20_000))
        do { _ = store.beginStoring(CacheStoreBehaviour.response(), for: key("c"), variant: "", expectedLength: nil) }
        CacheStoreBehaviour.put(Data(count: 100), in: store, key: key("d"))
        #expect(files(in: url).filter { $0.hasPrefix(".tmp/") } == [])
        #expect(files(in: url).count == 2)
    }

    /// Each damaged head or body is a miss, and the entry's files are gone after.
    @Test(arguments: ["garbage head", "empty head", "wrong magic", "other version", "flipped payload byte", "short body", "long body", "no body", "head cut short"])
    func aDamagedEntryIsAMissAndIsRemoved(_ damage: String) throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(CacheStoreBehaviour.body(5000, seed: 1), in: store, key: key("a"))
        CacheStoreBehaviour.put(CacheStoreBehaviour.body(500, seed: 2), in: store, key: key("b"))
        let aDirectory = url.appendingPathComponent(DiskCacheFormat.keyDirectoryName(key("a")))
        let head = try #require(files(in: aDirectory).first { $0.hasSuffix(".head") }.map(aDirectory.appendingPathComponent))
        let body = try #require(files(in: aDirectory).first { $0.hasSuffix(".body") }.map(aDirectory.appendingPathComponent))
        var bytes = [UInt8](try Data(contentsOf: head))
        switch damage {
        case "garbage head": bytes = Array("not a head at all, just words".utf8)
        case "empty head": bytes = []
        case "wrong magic": bytes[0] ^= 0xFF
        case "other version": bytes[11] = 2
        case "flipped payload byte": bytes[40] ^= 0x01
        case "head cut short": bytes.removeLast(10)
        case "short body": try Data(count: 4999).write(to: body)
        case "long body": try Data(count: 5001).write(to: body)
        case "no body": try FileManager.default.removeItem(at: body)
        default: Issue.record("unknown damage \(damage)")
        }
        if !damage.hasSuffix("body") { try Data(bytes).write(to: head) }
        #expect(store.entries(for: key("a")).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: head.path))
        #expect(!FileManager.default.fileExists(atPath: body.path))
        #expect(try store.entries(for: key("b")).first.flatMap { try CacheStoreBehaviour.read($0, in: store) } == CacheStoreBehaviour.body(500, seed: 2))
        #expect(files(in: url).count == 2)
    }

    /// A FIFO would block a plain open until a writer came; a link could point anywhere.
    @Test(arguments: ["fifo head", "fifo body", "linked head"])
    func aFileThatIsNotARegularFileIsAMiss(_ kind: String) throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(Data(count: 10), in: store, key: key("a"))
        let entry = try #require(store.entries(for: key("a")).first)
        let paths = try #require(store.paths(of: entry))
        let target = kind.hasSuffix("body") ? paths.bodyFile : paths.headFile
        let elsewhere = url.appendingPathComponent("elsewhere").path
        try FileManager.default.moveItem(atPath: target, toPath: elsewhere)
        if kind.hasPrefix("fifo") {
            #expect(mkfifo(target, 0o600) == 0)
        } else {
            try FileManager.default.createSymbolicLink(atPath: target, withDestinationPath: elsewhere)
        }
        if kind == "fifo body" {
            #expect(store.openBody(of: entry) == nil)
        }
        #expect(store.entries(for: key("a")).isEmpty)
        #expect((try? FileManager.default.attributesOfItem(atPath: target)) == nil)
    }

    @Test func aBodyCutShortWhileReadIsAnErrorNotAShortBody() throws {
        let store = try DiskCacheStore(directory: directory(), maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(CacheStoreBehaviour.body(5000, seed: 1), in: store, key: key("a"))
        let entry = try #require(store.entries(for: key("a")).first)
        let reader = try #require(store.openBody(of: entry))
        defer { reader.close() }
        #expect(try reader.read(upTo: 1000)?.count == 1000)
        let paths = try #require(store.paths(of: entry))
        #expect(truncate(paths.bodyFile, 2000) == 0)
        #expect(try reader.read(upTo: 5000)?.count == 1000)
        #expect(throws: CacheReadError.self) { try reader.read(upTo: 5000) }
    }

    @Test func aBodyRemovedBeforeItIsOpenedIsAMiss() throws {
        let store = try DiskCacheStore(directory: directory(), maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(CacheStoreBehaviour.body(100, seed: 1), in: store, key: key("a"))
        let entry = try #require(store.entries(for: key("a")).first)
        let paths = try #require(store.paths(of: entry))
        #expect(unlink(paths.bodyFile) == 0)
        #expect(store.openBody(of: entry) == nil)
        var forged = entry
        forged.id = "../../etc/passwd"
        #expect(store.openBody(of: forged) == nil)
    }

    /// A head of another key in this key's directory (a hash collision) is not this key's
    /// answer, and is not removed as damaged either.
    @Test func aHeadOfAnotherKeyIsNotAnAnswer() throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(Data([1]), in: store, key: key("a"))
        let from = url.appendingPathComponent(DiskCacheFormat.keyDirectoryName(key("a")))
        let to = url.appendingPathComponent(DiskCacheFormat.keyDirectoryName(key("b")))
        try FileManager.default.copyItem(at: from, to: to)
        #expect(store.entries(for: key("b")).isEmpty)
        #expect(files(in: to).count == 2)
    }

    /// Recency is kept in the files: a second store on the directory, as another process would
    /// have, sees what the first read.
    @Test func recencyIsSharedByStoresOnOneDirectory() throws {
        let url = directory()
        let probe = try DiskCacheStore(directory: directory(), maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(Data(count: 2000), in: probe, key: key("x"))
        let bound = probe.storedBytes * 7 / 2
        let writer = try DiskCacheStore(directory: url, maximumBytes: bound)
        let reader = try DiskCacheStore(directory: url, maximumBytes: bound)
        for name in ["a", "b", "c"] { CacheStoreBehaviour.put(Data(count: 2000), in: writer, key: key(name)) }
        let a = try #require(reader.entries(for: key("a")).first)
        #expect(try CacheStoreBehaviour.read(a, in: reader)?.count == 2000)
        CacheStoreBehaviour.put(Data(count: 2000), in: writer, key: key("d"))
        #expect(writer.entries(for: key("b")).isEmpty)
        #expect(["a", "c", "d"].allSatisfy { reader.entries(for: key($0)).count == 1 })
    }

    /// The bytes of every head and body file under `url`.
    private func bytesOfEntries(in url: URL) -> Int {
        files(in: url).filter { $0.hasSuffix(".head") || $0.hasSuffix(".body") }.reduce(0) { total, file in
            total + ((try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)[.size] as? Int) ?? 0)
        }
    }

    /// The count kept in the lock file follows every kind of change, so it equals what a walk
    /// of the directory finds.
    @Test func theRecordedCountIsTheBytesOfTheFiles() throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 60_000)
        for round in 0..<30 {
            CacheStoreBehaviour.put(CacheStoreBehaviour.body(round * 397 % 9000, seed: 1), in: store, key: key("k\(round % 7)"), variant: "\(round % 2)")
            if round % 5 == 4, let entry = store.entries(for: key("k\(round % 7)")).first {
                store.update(entry, to: CacheStoreBehaviour.response([("X-Round", String(repeating: "r", count: round))]))
            }
            if round % 11 == 10 { store.remove(key("k\(round % 3)")) }
            #expect(store.storedBytes == bytesOfEntries(in: url))
        }
        let damaged = url.appendingPathComponent(DiskCacheFormat.keyDirectoryName(key("k6")))
        // Damaged in place, its size kept: the count cannot know what an outside writer did.
        for file in files(in: damaged) where file.hasSuffix(".head") {
            var bytes = try Data(contentsOf: damaged.appendingPathComponent(file))
            bytes[30] ^= 0x20
            try bytes.write(to: damaged.appendingPathComponent(file))
        }
        #expect(store.entries(for: key("k6")).isEmpty)
        #expect(store.storedBytes == bytesOfEntries(in: url))
        #expect(store.storedBytes <= 60_000)
        store.removeAll()
        #expect(store.storedBytes == 0)
    }

    @Test func leftOverFilesAreCollectedWhenTheCountIsRebuilt() throws {
        let url = directory()
        let store = try DiskCacheStore(directory: url, maximumBytes: 1 << 20)
        CacheStoreBehaviour.put(Data(count: 100), in: store, key: key("a"))
        let stored = store.storedBytes
        let keyDirectory = url.appendingPathComponent(DiskCacheFormat.keyDirectoryName(key("a")))
        // A body no head names (a crash between renames), an old temporary file (a crash while
        // writing), a file the store never makes.
        let orphan = keyDirectory.appendingPathComponent(DiskCacheFormat.bodyFileName(variant: DiskCacheFormat.variantName("other"), body: DiskCacheFormat.uniqueName()))
        try Data(count: 5000).write(to: orphan)
        let stale = url.appendingPathComponent(".tmp/\(DiskCacheFormat.uniqueName()).tmp")
        try Data(count: 5000).write(to: stale)
        try FileManager.default.setAttributes([.modificationDate: Date() - 7200], ofItemAtPath: stale.path)
        let fresh = url.appendingPathComponent(".tmp/\(DiskCacheFormat.uniqueName()).tmp")
        try Data(count: 5000).write(to: fresh)
        let foreign = url.appendingPathComponent("notes.txt")
        try Data("mine".utf8).write(to: foreign)
        // The count is of entries only.
        #expect(store.storedBytes == stored)
        // A lock file without a count (a crash while writing it) has the directory walked.
        #expect(truncate(url.appendingPathComponent(".lock").path, 0) == 0)
        #expect(store.storedBytes == stored)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(!FileManager.default.fileExists(atPath: stale.path))
        #expect(FileManager.default.fileExists(atPath: fresh.path))
        store.removeAll()
        #expect(FileManager.default.fileExists(atPath: foreign.path))
        #expect(store.storedBytes == 0)
    }

    // MARK: Opening

    @Test func aDirectoryThatCannotBeMadeIsANamedError() throws {
        let file = directory("plain-file")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: file)
        // A file in the way is named, at whatever depth below it the directory was asked for.
        let cases = [
            (file, "it could not be created: Not a directory"),
            (file.appendingPathComponent("cache"), "it could not be created: \(file.path) is not a directory"),
            (file.appendingPathComponent("a/b/cache"), "it could not be created: \(file.path) is not a directory"),
        ]
        for (target, reason) in cases {
            do {
                _ = try HTTPCache(directory: target)
                Issue.record("a cache opened in \(target.path)")
            } catch let error as CacheDirectoryError {
                #expect(error.directory == target)
                #expect(error.reason == reason)
                #expect(error.description == "the cache directory \(target.path) cannot be used: \(reason)")
            }
        }
    }

    @Test func theCacheMakesItsDirectoryWithItsParents() throws {
        let target = directory().appendingPathComponent("nested/cache")
        let cache = try HTTPCache(directory: target, maximumBytes: 4096)
        #expect(cache.storedBytes == 0)
        #expect((cache.store as? DiskCacheStore)?.maximumBytes == 4096)
        #expect((HTTPCache().store as? MemoryCacheStore)?.maximumBytes == 32 << 20)
        #expect((HTTPCache(maximumBytes: 10).store as? MemoryCacheStore)?.maximumBytes == 10)
    }
}
