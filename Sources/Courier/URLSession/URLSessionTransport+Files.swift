#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Downloads the response body of `request` to a new file in the temporary directory and
    /// returns its URL, with the same behaviour as `CurlTransport`'s `download(for:progress:)`.
    ///
    /// The body is written a chunk at a time as it arrives through ``stream(for:uploading:)``,
    /// and is bounded by ``Policies/maximumResponseBytes`` as that is. The file is the caller's
    /// to move or delete; when the download fails or its task is cancelled, it is removed before
    /// the error is thrown.
    ///
    /// - Parameter progress: Told how many bytes arrived, about ten times a second and once at
    ///   the end (see ``StreamingLayers/reportingProgress(every:_:)``).
    public func download(
        for request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (URL, URLResponse) {
        try await FileTransfers.download(request, over: streaming, progress: progress)
    }

    /// Sends the file at `fileURL` as the request body and returns the response body, with the
    /// same behaviour as `CurlTransport`'s `upload(for:fromFile:progress:)`.
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
            request, body: body, over: streaming,
            maximumResponseBytes: configuration.policies.maximumResponseBytes, progress: progress
        )
    }
}
