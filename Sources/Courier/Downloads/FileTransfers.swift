#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// URLSession's file vocabulary, `download(for:)` and `upload(for:fromFile:)`, written once over
/// a ``StreamingNetworking`` so that each transport exposes it with the same behaviour. They
/// answer with Foundation's response, as URLSession does, built from Courier's head once the body
/// is done.
package enum FileTransfers {
    /// Streams the response body of `request` to a new file in the temporary directory, a chunk
    /// at a time, and returns the file's URL; the caller owns the file. On any failure,
    /// cancellation included, the file is removed before the error is thrown. The body is a
    /// download into a file (``ResponseBodyDestination/file``): the disk bounds it, not
    /// ``Policies/maximumResponseBytes``.
    package static func download(
        _ request: URLRequest, over streaming: @escaping StreamingNetworking,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (URL, URLResponse) {
        let (body, head) = try await StreamingLayers.download(over: streaming, progress: progress)(request, nil)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("Courier-\(UUID().uuidString).tmp")
        let handle = try createFile(at: url)
        do {
            for try await chunk in body {
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: url)
            throw error
        }
        return (url, head.urlResponse)
    }

    /// Sends `body` as the request body and collects the response, failing with
    /// `URLError(.dataLengthExceedsMaximum)` past `maximumResponseBytes`.
    package static func upload(
        _ request: URLRequest, body: RequestBody, over streaming: @escaping StreamingNetworking,
        maximumResponseBytes: Int, progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> (Data, URLResponse) {
        let networking = progress.map { layered(streaming, [StreamingLayers.reportingProgress($0)]) } ?? streaming
        let (responseBody, head) = try await networking(request, body)
        return (try await responseBody.collect(upTo: maximumResponseBytes), head.urlResponse)
    }

    /// A new file only this user can read, failing rather than opening one that exists.
    private static func createFile(at url: URL) throws -> FileHandle {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            let code = errno
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)]
            )
        }
        return FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    }
}
