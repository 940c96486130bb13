#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSession {
    /// One task whose head is returned as soon as it arrives and whose body is written to a
    /// ``ResponseBody`` as the delegate receives it.
    ///
    /// Bytes in memory go out as `httpBody`; a file as an upload task's file, which
    /// FoundationNetworking reads in pieces as it sends; a stream is spooled to a file first
    /// (see ``URLSessionTransport/UploadSpool``).
    func courierStream(
        for request: URLRequest, uploading upload: UploadBody?, tasks: URLSessionTransport.TaskQueue, delegate: URLSessionTransport.SessionDelegate
    ) async throws -> (ResponseBody, ResponseHead) {
        var request = withSessionTimeout(request)
        // As in courierExchange: a task cancelled before it got here sends nothing.
        try Task.checkCancellation(url: request.url)
        var file: URL?
        var spool: URLSessionTransport.UploadSpool?
        if let upload {
            request.httpBody = nil
            request.httpBodyStream = nil
            switch upload.source {
            case .data(let data):
                request.httpBody = data
            case .file(let url):
                file = url
            case .chunks:
                let written = try await URLSessionTransport.UploadSpool.write(upload)
                spool = written
                file = written.file
            }
        }
        let exchange = URLSessionTransport.StreamExchange(
            request: request, tasks: tasks, spool: spool, sendObserver: upload?.readObserver, unreadLimit: delegate.maximumUnreadBytes
        )
        let (sent, uploadFile, spooled) = (request, file, spool)
        let idleTimeout = URLSessionTransport.IdleTimeout.start(for: exchange)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                tasks.start {
                    let task: URLSessionTask
                    if let uploadFile {
                        task = self.uploadTask(with: sent.wholeSecondTimeout, fromFile: uploadFile)
                    } else {
                        task = self.dataTask(with: sent.wholeSecondTimeout)
                    }
                    delegate.register(exchange, for: task, idleTimeout: idleTimeout)
                    exchange.start(task, continuation: continuation)
                } refuse: {
                    idleTimeout?.cancel()
                    spooled?.remove()
                    continuation.resume(throwing: URLSessionTransport.shutDownError(url: sent.url))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
