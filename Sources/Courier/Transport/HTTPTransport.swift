#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A transport: one engine with its ``Policies`` over it, and a way to release what the engine
/// holds.
///
/// `URLSessionTransport` and `CurlTransport` conform, and so can an engine of your own: it
/// answers ``engine`` with a ``TransportEngine`` (its one exchange, with the policies applied
/// once), and everything else is written once here over that and behaves the same on every
/// transport: ``data(for:)``, ``stream(for:uploading:)``, downloads and uploads from files,
/// ``APIClient/init(baseURL:transport:decoder:encoder:)``. See <doc:ImplementingATransport>.
/// Choose a transport by configuration with `TransportKind.makeTransport(…)` in
/// `CourierCurl`, and keep it as `any HTTPTransport`.
public protocol HTTPTransport: Sendable {
    /// The policies this transport applies over its engine.
    var policies: Policies { get }
    /// What the engine can and cannot do; nothing beyond HTTP exchanges unless a conformer
    /// says otherwise.
    var capabilities: TransportCapabilities { get }
    /// The engine with ``policies`` over it (``TransportEngine/applying(_:)``), built once:
    /// what every call of the transport goes through.
    var engine: TransportEngine { get }
    /// Ends the requests in flight with a typed error, refuses new ones and releases the engine.
    func shutdown() async
}

extension HTTPTransport {
    /// Sends `request` through the policies and returns the final response's body and
    /// `HTTPURLResponse`, as URLSession's `data(for:)` does; any status is a response.
    ///
    /// - Throws: ``RequestError`` for a request that must not be sent (a malformed method or
    ///   header; nothing is sent); `URLError` for failures on the wire, with URLSession's code
    ///   and a description that names the method, the URL and what happened;
    ///   `URLError(.cancelled)` when the calling task is cancelled.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await networking(request)
    }

    /// Sends `request` through the policies, its body read from `upload` as it goes out (the
    /// request's own `httpBody` when nil), and returns as soon as the final response's head
    /// arrives, with the body to read as it comes; any status is a response.
    ///
    /// ```swift
    /// let (body, head) = try await transport.stream(for: request)
    /// for try await chunk in body { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// The head's ``ResponseHead/metrics`` hold what was measured up to the first byte; the
    /// body's ``ResponseBody/metrics`` the whole exchange's once it has ended. Cancelling the
    /// task before the head arrives, or the reading task, or dropping the body before its end,
    /// stops the transfer. A transport whose ``TransportCapabilities/pausesForSlowReaders``
    /// keeps memory at its stream buffer whatever the body's size; the other keeps unread bytes
    /// up to a limit of its configuration.
    ///
    /// - Throws: what ``data(for:)`` throws, before the head; a read of the body throws the
    ///   engine's `URLError` for failures after it.
    public func stream(for request: URLRequest, uploading upload: RequestBody? = nil) async throws -> (ResponseBody, ResponseHead) {
        try await engine.stream(request, upload)
    }

    /// This transport as a ``Networking`` value, sending as ``data(for:)`` does: the function to
    /// compose with others (``chain(_:to:)-8ygq5``), swap, and stand in for in tests. The
    /// function keeps the transport alive.
    public var networking: Networking {
        Courier.networking(exchange)
    }

    /// This transport's streamed call as a value, sending as ``stream(for:uploading:)`` does:
    /// the function to compose, swap and stand in for where bodies stream.
    public var streaming: StreamingNetworking {
        // Holds the transport, as `networking` does: a transport released shuts down.
        { [self] request, upload in try await engine.stream(request, upload) }
    }

    /// One buffered exchange through the policies, with Courier's own head: what ``APIClient``
    /// runs on, and the tests.
    package var exchange: HTTPExchange {
        { [self] request in try await engine.exchange(request) }
    }

    /// No more than HTTP exchanges: a conformer says what else its engine can do.
    public var capabilities: TransportCapabilities {
        TransportCapabilities()
    }

    /// Downloads the response body of `request` to a new file in the temporary directory and
    /// returns its URL, as URLSession's `download(for:)` does.
    ///
    /// The body is written a chunk at a time as it arrives through ``streaming``. Like
    /// URLSession's and AsyncHTTPClient's downloads, it is bounded by the disk, not by
    /// ``Policies/maximumResponseBytes``, which bounds bodies kept in memory: on either engine
    /// a body of any size is written whole. Memory stays at the engine's stream buffer when
    /// its ``TransportCapabilities/pausesForSlowReaders``; otherwise (`URLSessionTransport`)
    /// the bytes the file has not taken yet wait in memory, up to the engine's unread limit,
    /// past which the download fails, so a disk slower than the network needs `CurlTransport`.
    /// The `URLResponse` is built from the response's head once the body is written. The file is created new (never one that
    /// exists) with mode 0600, readable and writable by this user alone, and is the caller's to
    /// move or delete; when the download fails or its task is cancelled, it is removed before
    /// the error is thrown.
    ///
    /// - Parameters:
    ///   - request: The request whose response body is downloaded.
    ///   - progress: Told how many bytes arrived, about ten times a second and once at the end.
    public func download(
        for request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (URL, URLResponse) {
        try await FileTransfers.download(request, over: streaming, progress: progress)
    }

    /// Sends the file at `fileURL` as the request body and returns the response body, as
    /// URLSession's `upload(for:fromFile:)` does.
    ///
    /// The request's method is sent as it is: set `POST` or `PUT`, since a GET with a body is
    /// refused. The response body is limited by ``Policies/maximumResponseBytes``.
    public func upload(
        for request: URLRequest, fromFile fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (Data, URLResponse) {
        try await upload(for: request, body: try RequestBody.file(fileURL), progress: progress)
    }

    /// Sends `bodyData` as the request body and returns the response body; see
    /// ``upload(for:fromFile:progress:)``.
    public func upload(
        for request: URLRequest, from bodyData: Data, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (Data, URLResponse) {
        try await upload(for: request, body: .data(bodyData), progress: progress)
    }

    private func upload(
        for request: URLRequest, body: RequestBody, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (Data, URLResponse) {
        try await FileTransfers.upload(
            request, body: body, over: streaming, maximumResponseBytes: policies.maximumResponseBytes, progress: progress
        )
    }
}
