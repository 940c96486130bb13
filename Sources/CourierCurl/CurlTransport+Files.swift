#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

extension CurlTransport {
    /// Downloads the response body of `request` to a new file in the temporary directory and
    /// returns its URL, as `URLSession.download(for:)` does.
    ///
    /// The body is written a chunk at a time as it arrives through ``stream(for:uploading:)``,
    /// so memory stays bounded whatever its size, and no
    /// ``Courier/Policies/maximumResponseBytes`` applies. The file is the caller's to move or
    /// delete; when the download fails or its task is cancelled, it is removed before the error
    /// is thrown. Any status is returned as it is unless the configuration's policies validate
    /// responses.
    ///
    /// - Parameter progress: Told how many bytes arrived, about ten times a second and once at
    ///   the end (see ``Courier/StreamingLayers/reportingProgress(every:_:)``).
    /// - Throws: what ``stream(for:uploading:)`` throws, a read's `URLError`, or the file
    ///   system's error when the file cannot be written.
    public func download(
        for request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (URL, URLResponse) {
        try await FileTransfers.download(request, over: streaming, progress: progress)
    }

    /// Sends the file at `fileURL` as the request body, read in pieces as libcurl sends it, and
    /// returns the response body, as `URLSession.upload(for:fromFile:)` does.
    ///
    /// The request's method is sent as it is: set `POST` or `PUT`, since a GET with a body is
    /// refused. The response body is limited by ``Courier/Policies/maximumResponseBytes``.
    ///
    /// - Parameter progress: Told how many bytes went out and came back, about ten times a
    ///   second and once at the end.
    /// - Throws: the file system's error when the file cannot be read; otherwise what
    ///   ``data(for:)`` throws.
    public func upload(
        for request: URLRequest, fromFile fileURL: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> (Data, URLResponse) {
        try await upload(for: request, body: try UploadBody.file(fileURL), progress: progress)
    }

    /// Sends `bodyData` as the request body and returns the response body, as
    /// `URLSession.upload(for:from:)` does; see ``upload(for:fromFile:progress:)``.
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
