#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension HTTPTransport {
    /// Downloads the response body of `request` into the file at `destination`, continuing
    /// from the bytes an earlier call left there when the server still has the same version.
    ///
    /// ```swift
    /// let response = try await transport.download(for: URLRequest(url: url), to: file)
    /// ```
    ///
    /// When the download starts, the response's validator (a strong `ETag`, else a
    /// `Last-Modified` that the `Date` shows to be strong) is stored beside the file in
    /// `FILE.courier-resume`. If the transfer is cut short or its task cancelled, what arrived
    /// stays in the file with that record, and the next call with the same URL sends
    /// `Range: bytes=N-` (N the file's size) with `If-Range`, so the server sends the rest only
    /// if the representation has not changed since (RFC 9110 §13.1.5):
    ///
    /// - 206 whose `Content-Range` starts at N: the body is appended.
    /// - 200 (the validator no longer matches, or the server ignores ranges): the file is
    ///   truncated and written from the start, with a new record.
    /// - 416 whose `Content-Range: bytes */LENGTH` is N: the file was complete already.
    ///   Another 416: the request is sent once more without a range.
    /// - 206 that starts anywhere else: `URLError(.badServerResponse)` naming the range, and
    ///   the file is left as it was.
    /// - any other status (a 404, a 503): the body is not written, the file and record stay,
    ///   and the response is returned for the caller to judge.
    ///
    /// A file at `destination` without a record for this URL is replaced. The record is removed
    /// once the file is complete; a response with no usable validator gets none, so its
    /// partial file starts again from the beginning next time. Only a GET is resumed, the one
    /// method ranges are defined for; the request's own `Range` and `If-Range` are replaced,
    /// and it asks for `Accept-Encoding: identity` unless it sets the field, since ranges count
    /// bytes before decoding. As with ``download(for:progress:)``, the disk bounds the file, not
    /// ``Policies/maximumResponseBytes``, and memory stays at the engine's stream buffer, or on
    /// an engine that cannot pause at the bytes the file has not taken yet, up to its unread
    /// limit.
    ///
    /// - Parameters:
    ///   - request: The GET to download; its `Range` and `If-Range` are replaced.
    ///   - destination: The file to write, continued when a record says it is unfinished.
    ///   - progress: Told how many bytes of each response arrived, counted from where that
    ///     response starts.
    /// - Returns: The final response: 200 when the file was written whole, 206 when it was
    ///   resumed, 416 when it was already complete; another status leaves the file unchanged.
    /// - Throws: what ``stream(for:uploading:)`` throws, with the file and record kept for a
    ///   later call; `URLError(.badServerResponse)` for a misplaced range;
    ///   `URLError(.networkConnectionLost)` for a 206 that ends before the representation does;
    ///   a `CocoaError` when the file or its record cannot be written.
    public func download(
        for request: URLRequest, to destination: URL, progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async throws -> URLResponse {
        try await ResumableDownload.download(request, to: destination, over: streaming, progress: progress)
    }
}
