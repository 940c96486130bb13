#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The tool's only calls to `write(2)`.
///
/// Not `FileHandle.write(_:)`: on Linux it forces a throwing write with no catch, so a closed pipe
/// traps the process. Not `print`: stdio buffers, and a failed `fwrite` is never reported.
enum FileDescriptorOutput {
    /// Why a write failed: the `errno` of the failing `write(2)`.
    struct Failure: Error, Equatable {
        var errnoCode: CInt

        /// The reader went away (`| head`). Not worth a message: the reader chose to stop.
        var isBrokenPipe: Bool { errnoCode == EPIPE }

        var description: String { String(cString: strerror(errnoCode)) }
    }

    /// Makes a write to a pipe with no reader fail with `EPIPE` instead of killing the process
    /// with `SIGPIPE`, so the tool can end with its documented status.
    static func ignoreBrokenPipeSignal() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// Writes every byte of `data` to `descriptor`, resuming after partial writes and signals.
    static func writeAll(_ data: Data, to descriptor: CInt) throws(Failure) {
        let failure: Failure? = data.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                    continue
                }
                let code = written == 0 ? EIO : errno
                switch code {
                case EINTR:
                    continue
                case EAGAIN, EWOULDBLOCK:
                    // A shell or parent may have left the descriptor non-blocking.
                    waitUntilWritable(descriptor)
                default:
                    return Failure(errnoCode: code)
                }
            }
            return nil
        }
        if let failure { throw failure }
    }

    private static func waitUntilWritable(_ descriptor: CInt) {
        var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
        while poll(&entry, 1, -1) < 0, errno == EINTR {}
    }
}
