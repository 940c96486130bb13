import Foundation

/// A request body sent as it is produced: bytes in memory, a file, or an `AsyncSequence` of
/// chunks, read while the request goes out so memory stays bounded whatever its size.
///
/// ```swift
/// let upload = try UploadBody.file(URL(filePath: "/var/backups/db.tar"))
/// let (body, response) = try await transport.stream(for: request, uploading: upload)
/// ```
///
/// A body with a known ``length`` goes out with that `Content-Length`; one without is sent
/// chunked. Only ``data(_:)`` and ``file(_:)`` bodies can be sent again, which a 307 or 308
/// redirect needs; a stream cannot, and such a redirect fails with
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

    /// Called with the count of bytes taken so far, each time the engine takes more (see
    /// ``observingReads(_:)``); starts again from zero when the body is sent again.
    package private(set) var readObserver: (@Sendable (Int64) -> Void)? = nil

    /// A `.chunks` source that produces the same bytes each time it runs (bytes or a file
    /// rewritten by ``observingReads(_:)``).
    private var chunksReplay = false

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

    /// Whether the body can be sent a second time, as a 307 or 308 redirect needs.
    public var isReplayable: Bool {
        if case .chunks = source { chunksReplay } else { true }
    }

    /// The same bytes, with `observe` told how many the engine has taken so far each time it
    /// takes more: for progress.
    ///
    /// Engines hand bytes and files to their libraries whole, where nothing could count them; so
    /// here every source becomes chunks the engine pulls through an ``UploadBodyReader``, bytes
    /// in slices of the same storage and a file read in pieces. Both stay replayable.
    package func observingReads(_ observe: @escaping @Sendable (Int64) -> Void) -> UploadBody {
        let produce: @Sendable (_ send: (Data) async throws -> Void) async throws -> Void
        switch source {
        case .data(let data):
            produce = { send in
                var start = data.startIndex
                while start < data.endIndex {
                    let end = data.index(start, offsetBy: Swift.min(UploadBodyReader.fileChunkSize, data.endIndex - start))
                    try await send(data[start..<end])
                    start = end
                }
            }
        case .file(let url):
            produce = { send in try await UploadBodyReader.readFile(url, send: send) }
        case .chunks(let chunks):
            produce = chunks
        }
        var body = UploadBody(source: .chunks(produce), length: length)
        body.chunksReplay = isReplayable
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
