#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Standard input as it is read, for `-T -`: each `read(2)` returns what has arrived, however
/// little, and that piece is handed over at once rather than held back to fill a buffer, so a
/// line typed or written by another process goes out before the next one exists.
///
/// One piece is read at a time, when the consumer asks for it, so memory stays at one piece.
/// The read blocks a thread of a queue of its own, never one of the threads Swift tasks share;
/// a read that waits cannot be cancelled, which costs nothing here, since the tool exits when
/// the transfer ends.
struct StandardInputChunks: AsyncSequence, Sendable {
    typealias Element = Data

    /// Why standard input could not be read: the `errno` of the failing `read(2)`.
    struct ReadFailure: Error, CustomStringConvertible {
        var errnoCode: CInt
        var description: String { "standard input could not be read: \(String(cString: strerror(errnoCode)))" }
    }

    /// The most bytes one piece holds.
    static let pieceSize = 64 << 10

    private static let queue = DispatchQueue(label: "courier.standard-input")

    struct AsyncIterator: AsyncIteratorProtocol {
        private var ended = false

        mutating func next() async throws -> Data? {
            guard !ended else { return nil }
            let piece = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                StandardInputChunks.queue.async { continuation.resume(with: Result { try StandardInputChunks.readPiece() }) }
            }
            if piece == nil { ended = true }
            return piece
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }

    /// What one `read(2)` returned; nil at the end of input.
    private static func readPiece() throws(ReadFailure) -> Data? {
        var buffer = [UInt8](repeating: 0, count: pieceSize)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count > 0 { return Data(buffer[0..<count]) }
            if count == 0 { return nil }
            if errno != EINTR { throw ReadFailure(errnoCode: errno) }
        }
    }
}
