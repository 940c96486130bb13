#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A ``CacheStore`` in a directory, which several processes may share: at most `maximumBytes`
/// of heads and bodies, the least recently used entries evicted first.
///
/// Each variant is a small head file naming a body file (``DiskCacheFormat`` has the layout).
/// Files are written whole under a temporary name and renamed into place, so a reader opens
/// either the old file or the new one, and a descriptor it holds keeps reading the file it
/// opened even once it is replaced or removed. Renames and removals are made holding the
/// directory's lock file (`flock`), so an eviction in one process never takes a body whose head
/// another is renaming into place; reads take no lock. Reading a body touches its head file,
/// whose modification time is the entry's last use, seen by every process.
///
/// The disk is input: a file of another format version, cut short or damaged is a miss and is
/// removed, whatever it holds.
package final class DiskCacheStore: CacheStore {
    package let directory: URL
    /// The most bytes kept at once, heads and bodies; files being written are not counted.
    package let maximumBytes: Int
    /// The lock file's descriptor: `flock` on it excludes other processes, and ``mutex`` this
    /// one's threads, which share the descriptor. It also holds the byte count.
    let lockDescriptor: Int32
    private let mutex = Locked(())
    let path: String
    let temporaryPath: String

    /// Opens the store in `directory`, creating it when missing.
    package init(directory: URL, maximumBytes: Int) throws(CacheDirectoryError) {
        self.directory = directory
        self.maximumBytes = max(0, maximumBytes)
        path = directory.path
        temporaryPath = path + "/" + DiskCacheFormat.temporaryDirectoryName
        func failure(_ what: String, _ code: Int32) -> CacheDirectoryError {
            CacheDirectoryError(directory: directory, reason: "\(what): \(String(cString: strerror(code)))")
        }
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw CacheDirectoryError(directory: directory, reason: "it could not be created: \(Self.creationFailure(of: path, error))")
        }
        guard DiskFiles.status(path)?.isDirectory == true else { throw failure("it is not a directory", ENOTDIR) }
        guard access(path, W_OK | X_OK) == 0 else { throw failure("it is not writable", errno) }
        let made = DiskFiles.makeDirectory(temporaryPath)
        guard made == 0 else { throw failure("its temporary directory could not be created", made) }
        let descriptor = DiskFiles.openFile(path + "/" + DiskCacheFormat.lockFileName, O_RDWR | O_CREAT)
        guard descriptor >= 0 else { throw failure("its lock file could not be opened", errno) }
        lockDescriptor = descriptor
        exclusively {
            if recordedBytes() == nil { evict(toFit: self.maximumBytes) }
        }
    }

    deinit {
        close(lockDescriptor)
    }

    /// Why `path` could not be made. A file where a parent directory should be is named, since
    /// Foundation reports it as a missing file, which sends the reader looking for the wrong thing.
    private static func creationFailure(of path: String, _ error: any Error) -> String {
        var ancestor = (path as NSString).deletingLastPathComponent
        while ancestor.count > 1 {
            if let status = DiskFiles.status(ancestor) {
                if !status.isDirectory { return "\(ancestor) is not a directory" }
                break
            }
            ancestor = (ancestor as NSString).deletingLastPathComponent
        }
        let code = DiskFiles.status(path).map { $0.isDirectory ? EACCES : ENOTDIR } ?? ENOENT
        return reason(error, otherwise: code)
    }

    private static func reason(_ error: any Error, otherwise code: Int32) -> String {
        if let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        return String(cString: strerror(code))
    }

    /// Runs `body` holding the directory's lock, against this process's threads and others.
    func exclusively<Result>(_ body: () -> Result) -> Result {
        mutex.withLock { _ in
            // Without the lock (a file system with no flock) the store still works in one
            // process, which the mutex serialises.
            while flock(lockDescriptor, LOCK_EX) != 0 && errno == EINTR {}
            defer { flock(lockDescriptor, LOCK_UN) }
            return body()
        }
    }

    // MARK: Paths

    func keyDirectory(_ name: String) -> String {
        path + "/" + name
    }

    /// Where an entry's files are, from its id, `<key directory>/<variant>.<body>`; nil for an
    /// id this store never made.
    struct EntryPaths {
        var keyDirectory: String
        var variant: String
        var body: String
        var headFile: String { keyDirectory + "/" + DiskCacheFormat.headFileName(variant: variant) }
        var bodyFile: String { keyDirectory + "/" + DiskCacheFormat.bodyFileName(variant: variant, body: body) }
    }

    func paths(of entry: CacheEntry) -> EntryPaths? {
        let parts = entry.id.split(separator: "/")
        guard parts.count == 2, DiskCacheFormat.isHexName(parts[0], length: 16) else { return nil }
        let names = parts[1].split(separator: ".")
        guard names.count == 2, DiskCacheFormat.isHexName(names[0], length: 16), DiskCacheFormat.isHexName(names[1], length: 32)
        else { return nil }
        return EntryPaths(keyDirectory: keyDirectory(String(parts[0])), variant: String(names[0]), body: String(names[1]))
    }

    // MARK: CacheStore

    package func entries(for key: CacheKey) -> [CacheEntry] {
        let name = DiskCacheFormat.keyDirectoryName(key)
        let directory = keyDirectory(name)
        var found: [(CacheEntry, Date)] = []
        for file in DiskFiles.names(in: directory) {
            guard case .head(let variant) = DiskCacheFormat.kind(ofFileNamed: file) else { continue }
            let headFile = directory + "/" + file
            switch DiskFiles.readSmallFile(headFile, limit: DiskCacheFormat.maximumHeadFileBytes) {
            case .missing:
                continue
            case .unreadable(let status):
                removeEntry(variant: variant, in: directory, ifHeadIs: status)
            case .contents(let data, let status):
                guard let head = DiskCacheFormat.decode(data), DiskCacheFormat.variantName(head.variant) == variant else {
                    removeEntry(variant: variant, in: directory, ifHeadIs: status)
                    continue
                }
                // Another key whose name hashes alike: not this key's, and not damaged.
                guard head.method == key.method, head.url == key.url else { continue }
                let bodyFile = directory + "/" + DiskCacheFormat.bodyFileName(variant: variant, body: head.body)
                guard DiskFiles.status(bodyFile)?.size == head.bodyLength else {
                    removeEntry(variant: variant, in: directory, ifHeadIs: status)
                    continue
                }
                let entry = CacheEntry(id: "\(name)/\(variant).\(head.body)", variant: head.variant, response: head.response, bodyLength: head.bodyLength)
                found.append((entry, head.storedAt))
            }
        }
        return found.sorted { $0.1 > $1.1 }.map(\.0)
    }

    package func openBody(of entry: CacheEntry) -> (any CacheBodyReader)? {
        guard let paths = paths(of: entry) else { return nil }
        guard let (descriptor, status) = DiskFiles.openRegularFile(paths.bodyFile) else { return nil }
        guard status.size == entry.bodyLength else {
            close(descriptor)
            return nil
        }
        _ = DiskFiles.touch(paths.headFile)
        return DiskCacheBodyReader(descriptor: descriptor, length: entry.bodyLength)
    }

    package func beginStoring(_ response: StoredResponse, for key: CacheKey, variant: String, expectedLength: Int?) -> (any CacheBodyWriter)? {
        let target = DiskCacheBodyWriter.Target(
            key: key, variant: variant, response: response, body: DiskCacheFormat.uniqueName(),
            temporaryFile: temporaryPath + "/" + DiskCacheFormat.uniqueName() + ".tmp"
        )
        // The head as it will be written, give or take the digits of the body's length.
        let probe = DiskCacheHead(method: key.method, url: key.url, variant: variant, body: target.body, bodyLength: 0, storedAt: Date(), response: response)
        guard let headBytes = DiskCacheFormat.encode(probe)?.count else { return nil }
        let bodyLimit = maximumBytes - headBytes - 24
        guard bodyLimit >= 0, (expectedLength ?? 0) <= bodyLimit else { return nil }
        let descriptor = DiskFiles.openFile(target.temporaryFile, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { return nil }
        return DiskCacheBodyWriter(store: self, target: target, descriptor: descriptor, bodyLimit: bodyLimit)
    }

    /// Makes a written body visible: renames it and its head into place, replacing the variant's
    /// files, then evicts down to the bound. The body file is removed when anything fails.
    func commit(_ target: DiskCacheBodyWriter.Target, bodyLength: Int) {
        let head = DiskCacheHead(
            method: target.key.method, url: target.key.url, variant: target.variant, body: target.body, bodyLength: bodyLength,
            storedAt: Date(), response: target.response
        )
        let headTemporary = temporaryPath + "/" + DiskCacheFormat.uniqueName() + ".tmp"
        guard let data = DiskCacheFormat.encode(head), DiskFiles.createFile(headTemporary, holding: data) else {
            unlink(target.temporaryFile)
            return
        }
        let name = DiskCacheFormat.keyDirectoryName(target.key)
        let paths = EntryPaths(keyDirectory: keyDirectory(name), variant: DiskCacheFormat.variantName(target.variant), body: target.body)
        exclusively {
            let replaced = DiskFiles.status(paths.headFile)?.size ?? 0
            guard DiskFiles.makeDirectory(paths.keyDirectory) == 0, rename(target.temporaryFile, paths.bodyFile) == 0 else {
                unlink(target.temporaryFile)
                unlink(headTemporary)
                return
            }
            guard rename(headTemporary, paths.headFile) == 0 else {
                unlink(paths.bodyFile)
                unlink(headTemporary)
                return
            }
            _ = DiskFiles.touch(paths.headFile)
            let removed = replaced + removeBodies(variant: paths.variant, in: paths.keyDirectory, except: target.body)
            account(data.count + bodyLength - removed)
        }
    }

    package func update(_ entry: CacheEntry, to response: StoredResponse) {
        guard let paths = paths(of: entry) else { return }
        exclusively {
            guard case .contents(let data, let status) = DiskFiles.readSmallFile(paths.headFile, limit: DiskCacheFormat.maximumHeadFileBytes),
                var head = DiskCacheFormat.decode(data), head.body == paths.body
            else { return }
            head.response = response
            let temporary = temporaryPath + "/" + DiskCacheFormat.uniqueName() + ".tmp"
            guard let updated = DiskCacheFormat.encode(head), DiskFiles.createFile(temporary, holding: updated) else { return }
            guard rename(temporary, paths.headFile) == 0 else {
                unlink(temporary)
                return
            }
            _ = DiskFiles.touch(paths.headFile)
            account(updated.count - status.size)
        }
    }

    package func remove(_ key: CacheKey) {
        exclusively { account(-removeKeyDirectory(keyDirectory(DiskCacheFormat.keyDirectoryName(key)))) }
    }

    package func removeAll() {
        exclusively {
            for name in DiskFiles.names(in: path) where DiskCacheFormat.isHexName(Substring(name), length: 16) {
                _ = removeKeyDirectory(keyDirectory(name))
            }
            // Counted afresh: what is left (another process's commit since) is all there is.
            evict(toFit: maximumBytes)
        }
    }

    package var storedBytes: Int {
        exclusively {
            if let recorded = recordedBytes() { return recorded }
            evict(toFit: maximumBytes)
            return recordedBytes() ?? 0
        }
    }

    // MARK: Removal

    /// Removes a variant found unreadable, unless its head was replaced since it was read
    /// (`head` is the file that was read; nil when it could not even be opened).
    func removeEntry(variant: String, in directory: String, ifHeadIs head: DiskFiles.Status?) {
        exclusively {
            let headFile = directory + "/" + DiskCacheFormat.headFileName(variant: variant)
            if let current = DiskFiles.status(headFile), let head, !current.isSameFile(as: head) { return }
            let removed = DiskFiles.remove(headFile) + removeBodies(variant: variant, in: directory, except: nil)
            rmdir(directory)
            account(-removed)
        }
    }

    /// Removes the variant's body files other than `body`, returning the bytes they held;
    /// called holding the lock.
    @discardableResult
    func removeBodies(variant: String, in directory: String, except body: String?) -> Int {
        var removed = 0
        for file in DiskFiles.names(in: directory) {
            if case .body(variant, let other) = DiskCacheFormat.kind(ofFileNamed: file), other != body {
                removed += DiskFiles.remove(directory + "/" + file)
            }
        }
        return removed
    }

    /// Removes every file the store makes in a key directory, then the directory when that
    /// leaves it empty, returning the bytes removed; called holding the lock.
    func removeKeyDirectory(_ directory: String) -> Int {
        var removed = 0
        for file in DiskFiles.names(in: directory) where DiskCacheFormat.kind(ofFileNamed: file) != nil {
            removed += DiskFiles.remove(directory + "/" + file)
        }
        rmdir(directory)
        return removed
    }
}
