#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The `-o` destination: a file created or truncated as curl does, or stdout for `-`, written
/// with ``FileDescriptorOutput`` so that a full disk or a closed pipe is an error, not a trap.
struct OutputFile {
    let descriptor: CInt
    private let ownsDescriptor: Bool

    /// Opens `path` for writing, creating it (mode 0666 less the umask) or truncating it; with
    /// `appending`, writing after what it holds, as curl's `-C` does.
    init(path: String, appending: Bool = false) throws(FileDescriptorOutput.Failure) {
        if path == "-" {
            descriptor = STDOUT_FILENO
            ownsDescriptor = false
            return
        }
        let opened = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC), 0o666)
        guard opened >= 0 else { throw FileDescriptorOutput.Failure(errnoCode: errno) }
        descriptor = opened
        ownsDescriptor = true
    }

    func write(_ data: Data) throws(FileDescriptorOutput.Failure) {
        try FileDescriptorOutput.writeAll(data, to: descriptor)
    }

    func close() {
        // Errors from close(2) on a regular file are reported by the writes before it.
        if ownsDescriptor { _ = closeDescriptor(descriptor) }
    }
}

/// `close(2)`, named apart from ``OutputFile/close()``, which shadows it inside the type.
private func closeDescriptor(_ descriptor: CInt) -> CInt {
    close(descriptor)
}
