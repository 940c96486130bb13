import Foundation

/// A request body read from `URLRequest.httpBodyStream`, a piece at a time as libcurl asks for
/// it, so an upload of any size costs one upload buffer of memory.
///
/// Read on the curl thread, inside the read callback: a `Data` or file stream answers at once,
/// but a custom `InputStream` that blocks in `read` holds up every transfer of its transport
/// until it returns. It cannot be rewound, so a transfer that must send it again (libcurl's
/// resend on a reused connection that turned out closed, a 307 or 308 redirect) fails with
/// `URLError(.requestBodyStreamExhausted)`, URLSession's code for a stream it cannot replay.
final class CurlBodyStream: @unchecked Sendable, Equatable {
    enum Read {
        /// That many bytes were copied into the buffer.
        case bytes(Int)
        /// The stream has no more bytes.
        case end
        /// The stream failed; its error, if it gave one.
        case failed((any Error)?)
    }

    private let stream: InputStream
    private var isOpen = false

    init(_ stream: InputStream) {
        self.stream = stream
    }

    deinit {
        if isOpen { stream.close() }
    }

    /// Reads up to `buffer.count` bytes, opening the stream on first use.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return .bytes(0) }
        if !isOpen {
            stream.open()
            isOpen = true
        }
        let count = stream.read(base.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count)
        if count > 0 { return .bytes(count) }
        if count == 0 { return .end }
        return .failed(stream.streamError)
    }

    static func == (lhs: CurlBodyStream, rhs: CurlBodyStream) -> Bool { lhs === rhs }
}
