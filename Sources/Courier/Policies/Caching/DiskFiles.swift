#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The few file operations a ``DiskCacheStore`` makes, on POSIX calls, each retried on `EINTR`
/// and none of them trapping: whatever is on the disk, an answer is a value.
enum DiskFiles {
    /// A file's identity and the fields eviction reads.
    struct Status {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var isDirectory: Bool
        var isRegularFile: Bool
        /// The last modification, in nanoseconds since 1970: for a head file, its last use.
        var modified: Int64
        var links: Int

        init(_ raw: stat) {
            device = UInt64(raw.st_dev)
            inode = UInt64(raw.st_ino)
            size = Int(raw.st_size)
            isDirectory = (raw.st_mode & S_IFMT) == S_IFDIR
            isRegularFile = (raw.st_mode & S_IFMT) == S_IFREG
            #if canImport(Darwin)
            modified = Int64(raw.st_mtimespec.tv_sec) * 1_000_000_000 + Int64(raw.st_mtimespec.tv_nsec)
            #else
            modified = Int64(raw.st_mtim.tv_sec) * 1_000_000_000 + Int64(raw.st_mtim.tv_nsec)
            #endif
            links = Int(raw.st_nlink)
        }

        func isSameFile(as other: Status) -> Bool {
            device == other.device && inode == other.inode
        }
    }

    static func status(_ path: String) -> Status? {
        var raw = stat()
        guard stat(path, &raw) == 0 else { return nil }
        return Status(raw)
    }

    static func status(descriptor: Int32) -> Status? {
        var raw = stat()
        guard fstat(descriptor, &raw) == 0 else { return nil }
        return Status(raw)
    }

    static func openFile(_ path: String, _ flags: Int32, mode: mode_t = 0o600) -> Int32 {
        while true {
            let descriptor = open(path, flags | O_CLOEXEC, mode)
            if descriptor >= 0 || errno != EINTR { return descriptor }
        }
    }

    /// What reading a small file found.
    enum SmallFile {
        case missing
        /// There, but not readable whole within the limit; `status` says which file it was.
        case unreadable(Status?)
        case contents(Data, Status)
    }

    /// Opens the regular file at `path` to read it; -1 for anything else, so that a FIFO, a
    /// device or a symbolic link put in the directory never blocks or redirects a read.
    static func openRegularFile(_ path: String) -> (descriptor: Int32, status: Status)? {
        let descriptor = openFile(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        guard let status = status(descriptor: descriptor), status.isRegularFile else {
            close(descriptor)
            errno = EINVAL
            return nil
        }
        return (descriptor, status)
    }

    /// The whole of the regular file at `path` when it has at most `limit` bytes.
    static func readSmallFile(_ path: String, limit: Int) -> SmallFile {
        guard let (descriptor, status) = openRegularFile(path) else {
            return errno == ENOENT ? .missing : .unreadable(Self.status(path))
        }
        defer { close(descriptor) }
        guard status.size <= limit else { return .unreadable(status) }
        var data = Data(count: status.size)
        var filled = 0
        while filled < status.size {
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress.map { $0 + filled }, status.size - filled)
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .unreadable(status) }
            filled += count
        }
        return .contents(data, status)
    }

    /// Writes all of `data` at the descriptor's offset; false on any error (a full disk).
    static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                written += count
            }
            return true
        }
    }

    /// Creates the file at `path`, which must not exist, holding `data`; false when it could
    /// not be written whole, and then nothing is left behind.
    static func createFile(_ path: String, holding data: Data) -> Bool {
        let descriptor = openFile(path, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { return false }
        let written = writeAll(data, to: descriptor)
        let closed = close(descriptor) == 0
        guard written && closed else {
            unlink(path)
            return false
        }
        return true
    }

    /// The names in the directory at `path`, without `.` and `..`; empty when it cannot be read.
    static func names(in path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Creates a directory only this user can enter; 0 when it exists after, else the errno.
    static func makeDirectory(_ path: String) -> Int32 {
        if mkdir(path, 0o700) == 0 { return 0 }
        let code = errno
        if code == EEXIST, status(path)?.isDirectory == true { return 0 }
        return code
    }

    /// Removes the file at `path`, returning the bytes it held; 0 when it was not there.
    static func remove(_ path: String) -> Int {
        let size = status(path)?.size ?? 0
        return unlink(path) == 0 ? size : 0
    }

    /// Sets the file's modification time to now, read from the clock to the nanosecond: the
    /// kernel's own stamp is only as fine as its tick, too coarse to order uses a few
    /// milliseconds apart. False when the file is gone.
    static func touch(_ path: String) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let times = [now, now]
        return utimensat(AT_FDCWD, path, times, 0) == 0
    }
}
