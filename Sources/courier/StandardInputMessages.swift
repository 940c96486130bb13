import Courier
import CourierWebSocket
import Foundation

/// Standard input as WebSocket messages, for `courier ws`: each line as a text message, or with
/// `--binary` each piece as it is read as a binary message. Built on ``StandardInputChunks``, so
/// a line goes out as soon as its newline was read, and memory holds one piece and one line.
struct StandardInputMessages: AsyncSequence, Sendable {
    typealias Element = WebSocket.Message

    /// Why the input ended before its end: it could not be read, or a line is not text.
    enum InputError: Error, CustomStringConvertible {
        case unreadable(any Error)
        /// A text message must be UTF-8 (RFC 6455 §5.6), and changing the bytes to make it so
        /// would send what was not written.
        case notUTF8(line: Int)

        var description: String {
            switch self {
            case .unreadable(let error): "\(error)"
            case .notUTF8(let line): "line \(line) of standard input is not UTF-8, which a text message must be; --binary sends bytes"
            }
        }
    }

    var binary: Bool

    struct AsyncIterator: AsyncIteratorProtocol {
        let binary: Bool
        var chunks = StandardInputChunks().makeAsyncIterator()
        var lines = LineSplitter()
        var ready: [Data] = []
        var nextReady = 0
        var lineNumber = 0
        var ended = false

        mutating func next() async throws -> WebSocket.Message? {
            guard binary else {
                guard let line = try await nextLine() else { return nil }
                return try text(line)
            }
            return try await read().map(WebSocket.Message.data)
        }

        private mutating func read() async throws(InputError) -> Data? {
            do {
                return try await chunks.next()
            } catch {
                throw .unreadable(error)
            }
        }

        private mutating func nextLine() async throws(InputError) -> Data? {
            while nextReady == ready.count {
                ready = []
                nextReady = 0
                if ended { return nil }
                if let piece = try await read() {
                    ready = lines.append(piece)
                } else {
                    ended = true
                    ready = lines.finish().map { [$0] } ?? []
                }
            }
            defer { nextReady += 1 }
            return ready[nextReady]
        }

        private mutating func text(_ line: Data) throws(InputError) -> WebSocket.Message {
            lineNumber += 1
            guard let text = String(validating: line, as: UTF8.self) else { throw .notUTF8(line: lineNumber) }
            return .string(text)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(binary: binary) }
}

/// Splits bytes into lines as they arrive, whatever the pieces' bounds: a line ends at LF, and
/// a CR before the LF goes with it, so a file written with CRLF sends the same messages. The
/// bytes after the last LF are a line too, as they are.
struct LineSplitter {
    private var partial = Data()

    /// The lines `piece` completes, without their line ends.
    mutating func append(_ piece: Data) -> [Data] {
        var lines: [Data] = []
        var start = piece.startIndex
        while let newline = piece[start...].firstIndex(of: UInt8(ascii: "\n")) {
            partial.append(piece[start..<newline])
            lines.append(Self.withoutCR(partial))
            partial = Data()
            start = piece.index(after: newline)
        }
        partial.append(piece[start...])
        return lines
    }

    /// The last line, when the input ended without a line end after it.
    mutating func finish() -> Data? {
        defer { partial = Data() }
        return partial.isEmpty ? nil : partial
    }

    private static func withoutCR(_ line: Data) -> Data {
        line.last == UInt8(ascii: "\r") ? Data(line.dropLast()) : line
    }
}
