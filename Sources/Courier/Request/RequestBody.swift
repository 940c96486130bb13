import Foundation

/// The body of a request, and its content type: bytes, text, JSON or a form built in memory, or
/// a file, a multipart form or an `AsyncSequence` of chunks read while the request goes out, so
/// memory stays bounded whatever its size.
///
/// One type serves every call that sends a body: a ``Request``'s method,
/// ``APIClient/send(_:)-(Request<Response>)`` included, and a transport's
/// ``HTTPTransport/stream(for:uploading:)``:
///
/// ```swift
/// let todo: Todo = try await client.send(Request("todos", method: .post(.json(newTodo))))
/// let report = try RequestBody.multipart(MultipartForm([.text("title", "Q3"), .file("pdf", pdfURL)]))
/// let receipt: Receipt = try await client.send(Request("reports", method: .post(report)))
/// ```
///
/// JSON bodies are encoded when the request is built, with the encoder of the ``APIClient``
/// that sends them, so one client-wide `JSONEncoder` configuration (dates, key strategy)
/// applies to every request; sent straight to a transport, they are encoded by a
/// `JSONEncoder()`.
///
/// A body with a known ``length`` goes out with that `Content-Length`; one without is sent
/// chunked. Only bodies held in memory, ``file(_:)`` and ``multipart(_:)`` bodies can be sent
/// again, which a 307 or 308 redirect or a retry needs; a stream cannot, and such a redirect
/// fails with `URLError(.requestBodyStreamExhausted)`.
///
/// Two bodies are equal when they have the same ``contentType`` and the same bytes (a JSON body
/// encoded for the comparison by a `JSONEncoder` whose only setting is `.sortedKeys`, so the
/// order of a dictionary's keys does not matter), the same file, or, for a body read as it is
/// sent, when one is a copy of the other. Two bodies that fail to encode are equal when they
/// fail with the same ``RequestError``.
public struct RequestBody: Sendable, Equatable {
    package enum Source: Sendable {
        case data(Data)
        case file(URL)
        /// Iterates the sequence, handing each chunk to `send`, which returns once there is room
        /// for the next.
        case chunks(@Sendable (_ send: (Data) async throws -> Void) async throws -> Void)
    }

    package let source: Source

    /// How many bytes the body has, when known before it is sent.
    public let length: Int64?

    /// The `Content-Type` the request is sent with unless its headers name one: a JSON body's
    /// `application/json`, a ``multipart(_:)`` body's with its boundary.
    ///
    /// A body without one goes out with no `Content-Type` unless the request names one, even by
    /// POST: FoundationNetworking labels a POST's own `httpBody` a form
    /// (`application/x-www-form-urlencoded`), as CurlTransport then does too, but neither
    /// takes an upload for one, as `curl -T` does not.
    public var contentType: String?

    /// How a body encoded by the sending client's `JSONEncoder` is encoded (nil: the body is its
    /// ``source``).
    private var encode: (@Sendable (JSONEncoder) throws -> Data)? = nil

    /// What tells two bodies read as they are sent apart: copies of one share it.
    private var identity: Identity? = nil

    /// Whether a ``Source/chunks(_:)`` source starts again from the beginning each time it is
    /// produced (it reads files and bytes it holds, not a sequence that is consumed).
    package var producesAgain = false

    /// Called with the count of bytes taken so far, each time the engine takes more (see
    /// ``observingReads(_:)``); starts again from zero when the body is sent again.
    package private(set) var readObserver: (@Sendable (Int64) -> Void)? = nil

    /// Whether the exchange needs the response while the body is still being produced (see
    /// ``duplex(_:length:)``).
    package private(set) var isDuplex = false

    package init(source: Source, length: Int64?, contentType: String? = nil) {
        self.source = source
        self.length = length
        self.contentType = contentType
        if case .chunks = source { identity = Identity() }
    }

    /// A body the sending client's encoder encodes; sent as it is, `JSONEncoder()`'s bytes.
    private init(contentType: String, encode: @escaping @Sendable (JSONEncoder) throws -> Data) {
        self.init(source: .chunks({ send in try await send(try Self.encoded(by: encode, with: JSONEncoder())) }), length: nil)
        self.contentType = contentType
        self.encode = encode
        producesAgain = true
    }

    /// Raw bytes, sent as given.
    public static func data(_ data: Data, contentType: String? = nil) -> RequestBody {
        RequestBody(source: .data(data), length: Int64(data.count), contentType: contentType)
    }

    /// UTF-8 text.
    public static func text(_ text: String, contentType: String = "text/plain; charset=utf-8") -> RequestBody {
        .data(Data(text.utf8), contentType: contentType)
    }

    /// Any `Encodable` value as JSON, with `Content-Type: application/json`.
    public static func json<Value: Encodable & Sendable>(_ value: Value) -> RequestBody {
        RequestBody(contentType: "application/json") { encoder in try encoder.encode(value) }
    }

    /// A JSON object from a dictionary, as WireKit builds its bodies:
    /// `.json(["title": "Test Todo", "completed": true] as [String: Any])`.
    ///
    /// The dictionary is serialized at once by `JSONSerialization`, with sorted keys; the
    /// ``APIClient``'s encoder does not apply. Values must be what `JSONSerialization` accepts
    /// (strings, numbers, booleans, `NSNull`, arrays and dictionaries of those); any other value
    /// fails the request with ``RequestError/bodyEncodingFailed(description:)`` when it is built.
    /// An `Encodable` type with ``json(_:)-(Value)`` keeps the body's shape checked by the
    /// compiler.
    public static func json(_ object: [String: Any]) -> RequestBody {
        guard JSONSerialization.isValidJSONObject(object) else {
            // Checked first: Darwin's JSONSerialization raises an Objective-C exception, which
            // no `catch` stops, for an object it cannot serialize.
            let failure = DictionaryEncodingError(
                description: "the dictionary holds a value JSONSerialization cannot write (only strings, numbers, booleans, NSNull, arrays and dictionaries)"
            )
            return RequestBody(contentType: "application/json") { _ in throw failure }
        }
        do {
            return .data(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), contentType: "application/json")
        } catch {
            let failure = DictionaryEncodingError(description: String(describing: error))
            return RequestBody(contentType: "application/json") { _ in throw failure }
        }
    }

    /// An HTML form, `application/x-www-form-urlencoded`, encoded as ``Endpoint`` encodes queries.
    public static func form(_ fields: [URLQueryItem]) -> RequestBody {
        .data(Data(PercentEncoding.query(fields).utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// The contents of a regular file, read in pieces as they are sent.
    ///
    /// - Throws: the file system's error when the file cannot be read or its size is unknown.
    public static func file(_ url: URL) throws -> RequestBody {
        RequestBody(source: .file(url), length: try fileSize(of: url))
    }

    /// The size of the regular file at `url`, as a body sends it.
    static func fileSize(of url: URL) throws -> Int64 {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        guard let size = (attributes[.size] as? NSNumber)?.int64Value else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        return size
    }

    /// The chunks of an `AsyncSequence`, read once, as fast as the connection takes them.
    /// `length`, when given, is sent as `Content-Length` and must be exact.
    public static func stream<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64? = nil) -> RequestBody
    where Chunks.Element == Data {
        RequestBody(source: .chunks({ send in
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
    /// ``HTTPTransport/stream(for:uploading:)`` and ``APIClient/stream(_:)`` return as soon as
    /// the response's head arrives, whether or not the body has ended, and the body's reads go
    /// on while it is sent; back pressure holds each way. A body from ``stream(_:length:)`` may
    /// be sent the same way by an engine that can, but only this one says the exchange depends
    /// on it: an engine whose ``TransportCapabilities/streamsDuplex`` is false refuses it with
    /// ``RequestError/unsupportedOption(_:transport:supportedBy:)`` before anything is sent,
    /// where waiting for the end of the body would never end. `length`, when given, is sent as
    /// `Content-Length` and must be exact; otherwise the body is sent chunked.
    public static func duplex<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks, length: Int64? = nil) -> RequestBody
    where Chunks.Element == Data {
        var body = stream(chunks, length: length)
        body.isDuplex = true
        return body
    }

    /// Whether the body can be sent a second time, as a 307 or 308 redirect needs.
    package var isReplayable: Bool {
        if case .chunks = source { producesAgain } else { true }
    }

    /// Whether the body's bytes are known before the request is sent, so that it goes in the
    /// request's `httpBody`: bytes, text, JSON and forms, not files or streams.
    package var isInMemory: Bool {
        if encode != nil { return true }
        if case .data = source { return true }
        return false
    }

    /// The bytes of a body held in memory (JSON encoded with `encoder`); nil for a body read as
    /// it is sent.
    package func data(using encoder: JSONEncoder = JSONEncoder()) throws(RequestError) -> Data? {
        if let encode { return try Self.encoded(by: encode, with: encoder) }
        if case .data(let data) = source { return data }
        return nil
    }

    /// This body with its JSON encoded by `encoder`, so that it goes out with its length; any
    /// other body as it is.
    package func encoded(using encoder: JSONEncoder = JSONEncoder()) throws(RequestError) -> RequestBody {
        guard let encode else { return self }
        var body = RequestBody.data(try Self.encoded(by: encode, with: encoder), contentType: contentType)
        body.readObserver = readObserver
        return body
    }

    private static func encoded(
        by encode: @Sendable (JSONEncoder) throws -> Data, with encoder: JSONEncoder
    ) throws(RequestError) -> Data {
        do {
            return try encode(encoder)
        } catch {
            throw .bodyEncodingFailed(description: String(describing: error))
        }
    }

    /// The same body, with `observe` told how many bytes the engine has taken so far each time
    /// it takes more: for progress.
    ///
    /// An ``UploadBodyReader`` reports every read. An engine that hands bytes or a file to its
    /// library whole reports what the library has taken, so the source stays what it was: a
    /// file is still sent as a file, and the body is as replayable as before.
    package func observingReads(_ observe: @escaping @Sendable (Int64) -> Void) -> RequestBody {
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

    public static func == (lhs: RequestBody, rhs: RequestBody) -> Bool {
        lhs.contentType == rhs.contentType && lhs.comparedContent == rhs.comparedContent
    }

    /// What `==` compares.
    private enum ComparedContent: Equatable {
        case bytes(Result<Data, RequestError>)
        case file(URL)
        case stream(ObjectIdentifier?)
    }

    /// Bytes are encoded once per comparison, with sorted keys so that two equal dictionaries
    /// compare equal whatever order they hold their keys in.
    private var comparedContent: ComparedContent {
        if let encode {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            return .bytes(Result { () throws(RequestError) in try Self.encoded(by: encode, with: encoder) })
        }
        switch source {
        case .data(let data): return .bytes(.success(data))
        case .file(let url): return .file(url)
        case .chunks: return .stream(identity.map(ObjectIdentifier.init))
        }
    }
}

/// Shared by the copies of one body read as it is sent, and by nothing else.
private final class Identity: Sendable {}

/// Why a dictionary body could not be serialized; its description is the whole message.
private struct DictionaryEncodingError: Error, CustomStringConvertible {
    var description: String
}
