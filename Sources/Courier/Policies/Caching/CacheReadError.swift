#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a stored body could not be read.
package enum CacheReadError: Error, CustomStringConvertible {
    /// The reader was closed.
    case closed
    /// The stored body ended after `read` of the `expected` bytes its entry names.
    case truncated(read: Int, expected: Int)
    /// Reading the stored body failed.
    case failed(errno: Int32)

    package var description: String {
        switch self {
        case .closed: "the stored body was read after its reader was closed"
        case .truncated(let read, let expected): "the stored body ended after \(read) of its \(expected) bytes"
        case .failed(let code): "reading the stored body failed: \(String(cString: strerror(code)))"
        }
    }
}
