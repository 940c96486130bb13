import Dispatch
import Foundation

extension RequestBody {
    /// The bytes of `URLRequest.httpBodyStream`, read in pieces on a dispatch queue so that an
    /// `InputStream` whose `read` blocks holds up no engine thread and no task thread.
    ///
    /// An `InputStream` can be read once: the body is not replayable. Reading stops at the end
    /// of the stream or at its first error, which fails the upload with that error.
    package static func inputStream(_ stream: InputStream, length: Int64?) -> RequestBody {
        let box = InputStreamBox(stream)
        return RequestBody(source: .chunks({ send in
            while let chunk = try await box.nextChunk() {
                try await send(chunk)
            }
        }), length: length)
    }
}

/// An `InputStream`, opened on first read and read off the cooperative threads.
private final class InputStreamBox: @unchecked Sendable {
    // @unchecked: the stream is touched only by reads, which run one at a time on `queue`.
    private let stream: InputStream
    private let queue = DispatchQueue(label: "Courier.RequestBody.inputStream")
    private var isOpen = false
    static let chunkSize = 64 << 10

    init(_ stream: InputStream) {
        self.stream = stream
    }

    deinit {
        if isOpen { stream.close() }
    }

    func nextChunk() async throws -> Data? {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { [self] in
                continuation.resume(with: Result { try readChunk() })
            }
        }
    }

    private func readChunk() throws -> Data? {
        if !isOpen {
            stream.open()
            isOpen = true
        }
        var chunk = Data(count: Self.chunkSize)
        let count = chunk.withUnsafeMutableBytes { buffer -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            return stream.read(base.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count)
        }
        if count > 0 {
            chunk.count = count
            return chunk
        }
        if count == 0 { return nil }
        throw InputStreamReadError(underlying: stream.streamError)
    }
}

/// Reading `URLRequest.httpBodyStream` failed.
package struct InputStreamReadError: Error, CustomStringConvertible {
    package var underlying: (any Error)?

    package var description: String {
        "reading the request body stream failed: \(underlying.map { "\($0)" } ?? "no error given")"
    }
}
