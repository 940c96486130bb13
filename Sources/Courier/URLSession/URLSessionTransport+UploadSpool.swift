#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// A streamed ``RequestBody`` written to a temporary file before it is sent, and the file
    /// removed once the task ends.
    ///
    /// FoundationNetworking reads a body stream on the session's work queue and ends the body
    /// as soon as the stream has no bytes available, so a stream that is still being produced
    /// can only be read by blocking that queue. Doing so was measured to deadlock: tasks created
    /// meanwhile wait for the queue on the threads that run Swift tasks, and the producer,
    /// itself a Swift task, then never runs. Only a file lets FoundationNetworking wait for bytes
    /// without blocking, and it reads one in pieces as it sends, so memory stays bounded; the
    /// cost is the body's size on disk and a first byte sent only once the sequence has ended.
    struct UploadSpool: Sendable {
        /// The file holding the body.
        let file: URL

        /// Writes every chunk of `body` to a new temporary file as it is produced.
        static func write(_ body: RequestBody) async throws -> UploadSpool {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: file.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
            }
            let spool = UploadSpool(file: file)
            do {
                let handle = try FileHandle(forWritingTo: file)
                defer { try? handle.close() }
                guard case .chunks(let produce) = body.source else {
                    try handle.write(contentsOf: await body.collect())
                    return spool
                }
                // Only this task writes; the closure's type requires a Sendable capture.
                let output = Locked(handle)
                try await produce { chunk in
                    try Task.checkCancellation()
                    try output.withLock { try $0.write(contentsOf: chunk) }
                }
                return spool
            } catch {
                spool.remove()
                throw error
            }
        }

        func remove() {
            try? FileManager.default.removeItem(at: file)
        }
    }
}
