#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What both of Courier's engines are: one exchange at a time, buffered or streamed, with the
/// shared ``Policies`` layers over it, and a way to release what the engine holds.
///
/// `URLSessionTransport` and `CurlTransport` conform; what is written once over the protocol
/// (``Networking``, downloads and uploads from files, their progress) behaves the same on
/// both. Choose one by configuration with `Transport.makeTransport(…)` in `CourierCurl`, and keep
/// it as `any HTTPTransport`.
public protocol HTTPTransport: Sendable {
    /// The policies this transport's layers apply.
    var policies: Policies { get }
    /// The engine with the policy layers over it, answering with Courier's own head.
    var exchange: HTTPExchange { get }
    /// The streaming engine with the policy layers over it, answering with Courier's own head.
    var streaming: StreamingNetworking { get }
    /// This transport as a ``Networking`` value.
    var networking: Networking { get }
    /// What the engine can and cannot do.
    var capabilities: TransportCapabilities { get }
    /// Ends the requests in flight with a typed error, refuses new ones and releases the engine.
    func shutdown() async
}

/// What an engine can do, where the two differ; every other behaviour is the same on both.
public struct TransportCapabilities: Sendable, Equatable {
    /// A streamed body whose reader falls behind pauses the transfer, so memory stays at the
    /// stream's buffer; otherwise the unread bytes wait in memory, up to a limit.
    public var pausesForSlowReaders: Bool
    /// Decoding stops at ``Policies/maximumResponseBytes``; otherwise the engine goes on decoding
    /// a compression bomb in the background after the caller has its error.
    public var stopsDecodingAtTheLimit: Bool
    /// A chunked response's trailer fields are returned; otherwise they end the process.
    public var returnsTrailers: Bool
    /// HTTP, HTTPS and SOCKS proxies, with credentials and a no-proxy list, are used;
    /// otherwise asking for one fails with ``RequestError/unsupportedOption(_:transport:supportedBy:)``.
    public var connectsThroughProxies: Bool
    /// `http+unix` URLs (see `URL.unixSocket(_:path:secure:)`) and a transport-wide Unix
    /// socket are sent over the socket; otherwise they are refused as above.
    public var connectsOverUnixSockets: Bool
    /// Fixed addresses for host names and connect-to rewrites replace DNS where configured;
    /// otherwise they are refused as above.
    public var overridesDNS: Bool
    /// HTTP/1.1 only and HTTP/2 with prior knowledge (h2c) can be chosen, and the version
    /// spoken is reported in ``ResponseHead/httpVersion``; otherwise asking is refused as above.
    public var choosesHTTPVersion: Bool
    /// A client certificate (its key possibly encrypted), a pinned public key and a minimum TLS
    /// version are honoured; otherwise asking for one is refused as above.
    public var configuresTLSIdentity: Bool

    /// Capabilities from their parts; what is not given is not supported.
    public init(
        pausesForSlowReaders: Bool, stopsDecodingAtTheLimit: Bool, returnsTrailers: Bool,
        connectsThroughProxies: Bool = false, connectsOverUnixSockets: Bool = false, overridesDNS: Bool = false,
        choosesHTTPVersion: Bool = false, configuresTLSIdentity: Bool = false
    ) {
        self.pausesForSlowReaders = pausesForSlowReaders
        self.stopsDecodingAtTheLimit = stopsDecodingAtTheLimit
        self.returnsTrailers = returnsTrailers
        self.connectsThroughProxies = connectsThroughProxies
        self.connectsOverUnixSockets = connectsOverUnixSockets
        self.overridesDNS = overridesDNS
        self.choosesHTTPVersion = choosesHTTPVersion
        self.configuresTLSIdentity = configuresTLSIdentity
    }
}

extension HTTPTransport {
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
    ///   the end (see ``StreamingLayers/reportingProgress(every:_:)``).
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
