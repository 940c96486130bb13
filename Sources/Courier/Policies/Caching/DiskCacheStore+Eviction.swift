#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension DiskCacheStore {
    /// How long a temporary file may go unwritten before it is taken for a crashed writer's and
    /// removed. Removing one still in use is safe: its writer's rename then fails, and the
    /// response is not kept.
    static let abandonedTemporaryFileAge: Int64 = 3600 * 1_000_000_000

    /// One stored variant, as eviction sees it.
    struct ScannedEntry {
        var directory: String
        var variant: String
        var bytes: Int
        /// The head file's modification time, touched when the body is read.
        var lastUse: Int64
    }

    /// Lists every entry with its size, removing on the way what belongs to none (bodies without
    /// a head, heads without a body, old temporary files, empty key directories). Called
    /// holding the lock, so no commit is between its two renames.
    func scan() -> (entries: [ScannedEntry], bytes: Int) {
        removeAbandonedTemporaryFiles()
        var entries: [ScannedEntry] = []
        var total = 0
        for name in DiskFiles.names(in: path) where DiskCacheFormat.isHexName(Substring(name), length: 16) {
            let directory = keyDirectory(name)
            var heads: [String: DiskFiles.Status] = [:]
            var bodies: [String: [(body: String, size: Int)]] = [:]
            for file in DiskFiles.names(in: directory) {
                guard let kind = DiskCacheFormat.kind(ofFileNamed: file), let status = DiskFiles.status(directory + "/" + file) else { continue }
                switch kind {
                case .head(let variant): heads[variant] = status
                case .body(let variant, let body): bodies[variant, default: []].append((body, status.size))
                }
            }
            for (variant, found) in bodies where heads[variant] == nil {
                for body in found { unlink(directory + "/" + DiskCacheFormat.bodyFileName(variant: variant, body: body.body)) }
            }
            for (variant, head) in heads {
                guard let bodySize = bodySize(variant: variant, in: directory, candidates: bodies[variant] ?? []) else {
                    unlink(directory + "/" + DiskCacheFormat.headFileName(variant: variant))
                    removeBodies(variant: variant, in: directory, except: nil)
                    continue
                }
                entries.append(ScannedEntry(directory: directory, variant: variant, bytes: head.size + bodySize, lastUse: head.modified))
                total += head.size + bodySize
            }
            if heads.isEmpty { rmdir(directory) }
        }
        return (entries, total)
    }

    /// The size of the body the variant's head names, removing the variant's other bodies (left
    /// by a process that stopped between a replacement's rename and its clean-up); nil when the
    /// head names none of them.
    private func bodySize(variant: String, in directory: String, candidates: [(body: String, size: Int)]) -> Int? {
        if candidates.count == 1 { return candidates[0].size }
        let headFile = directory + "/" + DiskCacheFormat.headFileName(variant: variant)
        guard candidates.count > 1, case .contents(let data, _) = DiskFiles.readSmallFile(headFile, limit: DiskCacheFormat.maximumHeadFileBytes),
            let head = DiskCacheFormat.decode(data), let named = candidates.first(where: { $0.body == head.body })
        else { return nil }
        removeBodies(variant: variant, in: directory, except: head.body)
        return named.size
    }

    /// Counts what the store holds by walking the directory and, when that is over `limit`,
    /// removes the least recently used entries until a tenth of `limit` is free, so that the
    /// next few commits need no walk; the most recently used entry goes only when it alone is
    /// over `limit`. Records the count. Called holding the lock.
    func evict(toFit limit: Int) {
        var (entries, total) = scan()
        defer { record(total) }
        guard total > limit else { return }
        let target = limit - limit / 10
        let oldestFirst = entries.sorted(by: { $0.lastUse < $1.lastUse })
        for (index, entry) in oldestFirst.enumerated() {
            guard total > (index == oldestFirst.count - 1 ? limit : target) else { break }
            unlink(entry.directory + "/" + DiskCacheFormat.headFileName(variant: entry.variant))
            removeBodies(variant: entry.variant, in: entry.directory, except: nil)
            rmdir(entry.directory)
            total -= entry.bytes
        }
    }

    private func removeAbandonedTemporaryFiles() {
        let now = Int64(Date().timeIntervalSince1970 * 1_000_000_000)
        for file in DiskFiles.names(in: temporaryPath) where file.hasSuffix(".tmp") {
            let file = temporaryPath + "/" + file
            if let status = DiskFiles.status(file), now - status.modified > Self.abandonedTemporaryFileAge { unlink(file) }
        }
    }
}
