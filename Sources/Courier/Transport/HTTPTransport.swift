#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What both of Courier's engines are: one exchange at a time, buffered or streamed, with the
/// transport's ``Policies`` over it, and a way to release what the engine holds.
///
/// `URLSessionTransport` and `CurlTransport` conform. Each supplies its engine's two calls with
/// the policies applied (``exchange`` and ``streaming``); everything else is written once here
/// over those two and behaves the same on both: ``data(for:)``, ``stream(for:uploading:)``,
/// ``networking``, downloads and uploads from files. Choose a transport by configuration with
/// `TransportKind.makeTransport(…)` in `CourierCurl`, keep it as `any HTTPTransport`, and give it to
/// ``APIClient/init(baseURL:transport:decoder:encoder:)``.
///
/// The two transports are the conformers; the heads and bodies an engine answers with are built
/// inside Courier. To bring an engine of your own, write a ``Networking`` function (see
/// <doc:ImplementingATransport>) and give it to ``APIClient/init(baseURL:networking:decoder:encoder:)``,
/// with ``Policies/apply(to:)`` for the shared policies.
public protocol HTTPTransport: Sendable {
    /// The policies this transport applies over its engine.
    var policies: Policies { get }
    /// What the engine can and cannot do.
    var capabilities: TransportCapabilities { get }
    /// One buffered exchange through the policies, answering with Courier's own
    /// ``ResponseHead``: what ``APIClient`` and ``Dispatcher`` run on.
    var exchange: HTTPExchange { get }
    /// One streamed exchange through the policies: what ``stream(for:uploading:)`` sends.
    var streaming: StreamingNetworking { get }
    /// Opens a WebSocket: sends `request` as the opening handshake (RFC 6455 §4) through the
    /// policies, and answers with the open socket once the server switched protocols.
    ///
    /// An engine that has no WebSockets refuses with
    /// ``RequestError/unsupportedOption(_:transport:supportedBy:)``, before anything is sent;
    /// that is what a conformer that does not implement this does.
    func webSocket(for request: URLRequest, options: WebSocket.Options) async throws -> WebSocket
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
    public func stream(for request: URLRequest, uploading upload: UploadBody? = nil) async throws -> (ResponseBody, ResponseHead) {
        try await streaming(request, upload)
    }

    /// This transport as a ``Networking`` value, sending as ``data(for:)`` does: for
    /// ``APIClient/init(baseURL:networking:decoder:encoder:)``, ``compose(_:_:)-922zo``
    /// and the other functions over ``Networking``.
    public var networking: Networking {
        Courier.networking(exchange)
    }

    /// Downloads the response body of `request` to a new file in the temporary directory and
    /// returns its URL, as URLSession's `download(for:)` does.
    ///
    /// The body is written a chunk at a time as it arrives through ``streaming``, and is bounded
    /// by ``Policies/maximumResponseBytes`` as that is. The `URLResponse` is built from the
    /// response's head once the body is written. The file is created new (never one that
    /// exists) with mode 0600, readable and writable by this user alone, and is the caller's to
    /// move or delete; when the download fails or its task is cancelled, it is removed before
    /// the error is thrown.
    ///
    /// - Parameter progress: Told how many bytes arrived, about ten times a second and once at
    ///   the end (see the progress layer).
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
        try await upload(for: request, body: try UploadBody.file(fileURL), progress: progress)
    }

    /// Sends `bodyData` as the request body and returns the response body; see
    /// ``upload(for:fromFile:progress:)``.
    public func upload(
        for request: URLRequest, from bodyData: Data, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (Data, URLResponse) {
        try await upload(for: request, body: .data(bodyData), progress: progress)
    }

    private func upload(
        for request: URLRequest, body: UploadBody, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (Data, URLResponse) {
        try await FileTransfers.upload(
            request, body: body, over: streaming, maximumResponseBytes: policies.maximumResponseBytes, progress: progress
        )
    }
}
