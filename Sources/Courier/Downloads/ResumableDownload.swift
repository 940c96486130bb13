#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A download into a file that a later call continues where an earlier one stopped, written
/// once over a ``StreamingNetworking`` so both engines resume alike. The decisions are
/// ``ResumePlan``'s; this applies them to the file and its ``ResumeRecord``.
package enum ResumableDownload {
    /// Downloads `request`'s body into `file`, resuming what an earlier attempt left there.
    package static func download(
        _ request: URLRequest, to file: URL, over streaming: @escaping StreamingNetworking,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws -> URLResponse {
        let networking = StreamingLayers.download(over: streaming, progress: progress)
        let recordLocation = ResumeRecord.location(for: file)
        var plan = ResumePlan(request: request, fileSize: size(of: file), record: ResumeRecord.load(from: recordLocation))
        // Ends within two requests: only a plan with a range starts over, and the plan it starts
        // over with has none, so a second 416 is returned as it is.
        while true {
            let (body, head) = try await networking(plan.request(from: request), nil)
            let action = plan.action(statusCode: head.statusCode, contentRange: head.value(forHTTPHeaderField: "Content-Range"))
            switch action {
            case .write(let offset, _):
                let validator = offset == 0 ? ResumeValidator(head.headerFields) : nil
                let size = try await write(body, to: file, at: offset, startingRecord: validator, at: recordLocation, for: request)
                guard ResumePlan.isComplete(after: action, fileSize: size) else {
                    throw incompleteRange(head, fileSize: size, request: request)
                }
                try ResumeRecord.remove(at: recordLocation)
                return head.urlResponse
            case .complete:
                try ResumeRecord.remove(at: recordLocation)
                return head.urlResponse
            case .startOver:
                plan = ResumePlan(offset: 0, validator: nil)
            case .misplacedRange(let contentRange):
                throw misplacedRange(contentRange, offset: plan.offset, request: request)
            case .leave:
                return head.urlResponse
            }
        }
    }

    /// Truncates `file` at `offset` (creating it when missing), stores the record for a new
    /// file only then, and appends `body` a chunk at a time. What arrived before a failure stays
    /// in the file, beside its record, for the next attempt. Returns the file's size.
    private static func write(
        _ body: ResponseBody, to file: URL, at offset: Int64, startingRecord validator: ResumeValidator?,
        at recordLocation: URL, for request: URLRequest
    ) async throws -> Int64 {
        if offset == 0 { try ResumeRecord.remove(at: recordLocation) }
        let handle = try openFile(file, truncatingAt: offset)
        defer { try? handle.close() }
        if offset == 0, let validator, let url = request.url {
            try ResumeRecord(url: url.redactedString, validator: validator).store(at: recordLocation)
        }
        var size = offset
        for try await chunk in body {
            try handle.write(contentsOf: chunk)
            size += Int64(chunk.count)
        }
        return size
    }

    /// `file` open for writing at `offset`, its bytes from there on cut off; created with mode
    /// 0666 less the umask, as curl's `-o` creates one, when missing.
    private static func openFile(_ file: URL, truncatingAt offset: Int64) throws -> FileHandle {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw fileError(file) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard ftruncate(descriptor, off_t(offset)) == 0, lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
            let error = fileError(file)
            try? handle.close()
            throw error
        }
        return handle
    }

    /// The size of the file at `file`, or `nil` when there is none (or it is not a regular file).
    package static func size(of file: URL) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            attributes[.type] as? FileAttributeType == .typeRegular
        else { return nil }
        return (attributes[.size] as? NSNumber)?.int64Value
    }

    private static func fileError(_ file: URL) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: file.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
        ])
    }

    private static func misplacedRange(_ contentRange: String?, offset: Int64, request: URLRequest) -> URLError {
        let answer = contentRange.map { "Content-Range: \($0)" } ?? "no Content-Range"
        return URLError(.badServerResponse, userInfo: [
            NSLocalizedDescriptionKey:
                "\(describe(request)): asked for the bytes from \(offset) and the server answered 206 with \(answer); the partial file was left as it was",
            NSURLErrorFailingURLErrorKey: request.url as Any,
        ])
    }

    private static func incompleteRange(_ head: ResponseHead, fileSize: Int64, request: URLRequest) -> URLError {
        let answer = head.value(forHTTPHeaderField: "Content-Range") ?? "no Content-Range"
        return URLError(.networkConnectionLost, userInfo: [
            NSLocalizedDescriptionKey:
                "\(describe(request)): the server sent part of the rest (Content-Range: \(answer)); the file holds \(fileSize) bytes and can be resumed",
            NSURLErrorFailingURLErrorKey: request.url as Any,
        ])
    }

    private static func describe(_ request: URLRequest) -> String {
        "\(request.httpMethod ?? "GET") \(request.url?.redactedString ?? "no URL")"
    }
}
