import Foundation

/// A request body sent as it is produced: bytes in memory, a file, or an `AsyncSequence` of
/// chunks, read while the request goes out so memory stays bounded whatever its size.
///
/// ```swift
/// let upload = try UploadBody.file(URL(filePath: "/var/backups/db.tar"))
/// let (body, head) = try await transport.stream(for: request, uploading: upload)
/// ```
///
/// A body with a known ``length`` goes out with that `Content-Length`; one without is sent
/// chunked. Only ``data(_:)``, ``file(_:)`` and ``multipart(_:)`` bodies can be sent again,
/// which a 307 or 308 redirect needs; a stream cannot, and such a redirect fails with
/// `URLError(.requestBodyStreamExhausted)`.
public struct UploadBody: Sendable {
    package enum Source: Sendable {
        case data(Data)
        case file(URL)
        /// Iterates the sequence, handing each chunk to `send`, which returns once there is room
        /// for the next.
        case chunks(@Sendable (_ send: (Data) async throws -> Void) async throws -> Void)
    }

    package let source: Source

    /// How many bytes the body has, when known.
    public let length: Int64?

    /// The `Content-Type` the body must be sent with, when it dictates one: a
    /// ``multipart(_:)`` body's names its boundary. Every transport's
    /// ``HTTPTransport/stream(for:uploading:)`` sends it with a request that names no
    /// `Content-Type`, and ``APIClient/stream(_:uploading:)`` in place of the one a request's
    /// method body would set, unless the request's headers name one.
    ///
    /// A body without one goes out with no `Content-Type` unless the request names one, even by
    /// POST: FoundationNetworking labels a POST's own `httpBody` a form
    /// (`application/x-www-form-urlencoded`), as CurlTransport then does too, but neither
    /// takes an upload for one, as `curl -T` does not.
    public package(set) var contentType: String? = nil

    /// Whether a ``Source/chunks(_:)`` source starts again from the beginning each time it is
    /// produced (it reads files and bytes it holds, not a sequence that is consumed).
    package var producesAgain = false

    /// Called with the count of bytes taken so far, each time the engine takes more (see
    /// ``observingReads(_:)``); starts again from zero when the body is sent again.
    package private(set) var readObserver: (@Sendable (Int64) -> Void)? = nil

    package init(source: Source, length: Int64?) {
        self.source = source
        self.length = length
    }

    /// Bytes already in memory.
    public static func data(_ data: Data) -> UploadBody {
        UploadBody(source: .data(data), length: Int64(data.count))
    }

    /// The contents of a regular file, read in pieces as they are sent.
    ///
    /// - Throws: the file system's error when the file cannot be read or its size is unknown.
    public static func file(_ url: URL) throws -> UploadBody {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = (attributes[.size] as? NSNumber)?.int64Value else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return UploadBody(source: .file(url), length: size)
    }

    /// The chunks of an `AsyncSequence`, read once, as fast as the connection takes them.
    /// `length`, when given, is sent as `Content-Length` and must be exact.
    public static func stream<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64? = nil) -> UploadBody
    where Chunks.Element == Data {
        UploadBody(source: .chunks({ send in
            for try await chunk in chunks { try await send(chunk) }
        }), length: length)
    }

    /// The chunks of an `AsyncSequence` that is still being produced while the response
    /// streams back: a conversation, where the next chunk may wait until the caller has read
    /// part of the response (an echo, a reply, a stream of commands and results).
    ///
    /// ```swift
    /// let (lines, more) = AsyncStream.makeStream(of: Data.self)
    /// let (body, head) = try await transport.stream(for: request, uploading: .duplex(lines))
    /// more.yield(Data("hello\n".utf8))   // then read the answer from body, send the next…
    /// ```
    ///
    /// ``HTTPTransport/stream(for:uploading:)`` returns as soon as the response's head arrives,
    /// whether or not the body has ended, and the body's reads go on while it is sent; back
    /// pressure holds each way. A body from ``stream(_:length:)`` may be sent the same way by
    /// an engine that can, but only this one says the exchange depends on it: an engine whose
    /// ``TransportCapabilities/streamsDuplex`` is false refuses it with
    /// ``RequestError/unsupportedOption(_:transport:supportedBy:)`` before anything is sent,
    /// where waiting for the end of the body would never end. `length`, when given, is sent as
    /// `Content-Length` and must be exact; otherwise the body is sent chunked.
    public static func duplex<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64? = nil) -> UploadBody
    where Chunks.Element == Data {
        var body = stream(chunks, length: length)
        body.isDuplex = true
        return body
    }

    /// Whether the exchange needs the response while the body is still being produced (see
    /// ``duplex(_:length:)``).
    package private(set) var isDuplex = false

    /// Whether the body can be sent a second time, as a 307 or 308 redirect needs.
    package var isReplayable: Bool {
        if case .chunks = source { producesAgain } else { true }
    }

    /// The same body, with `observe` told how many bytes the engine has taken so far each time
    /// it takes more: for progress.
    ///
    /// An ``UploadBodyReader`` reports every read. An engine that hands bytes or a file to its
    /// library whole reports what the library has taken, so the source stays what it was: a
    /// file is still sent as a file, and the body is as replayable as before.
    package func observingReads(_ observe: @escaping @Sendable (Int64) -> Void) -> UploadBody {
        var body = self
        if let first = readObserver {
            body.readObserver = { count in first(count); observe(count) }
        } else {
            body.readObserver = observe
        }
        return body
    }

    /// The whole body in memory, for engines that cannot stream it.
    package func collect() async throws -> Data {
        switch source {
        case .data(let data):
            readObserver?(Int64(data.count))
            return data
        case .file(let url):
            let data = try Data(contentsOf: url)
            readObserver?(Int64(data.count))
            return data
        case .chunks(let produce):
            // Only this task appends; the closure's type requires Sendable captures.
            let data = Locked(Data())
            let observe = readObserver
            try await produce { chunk in
                let count = data.withLock { data in
                    data.append(chunk)
                    return data.count
                }
                observe?(Int64(count))
            }
            return data.withLock { $0 }
        }
    }
}
