#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Sends `request` through the policy layers, its body produced from `body` as it goes
    /// out, and returns as soon as the final response's head arrives, with the body to read as
    /// it comes; any HTTP status is a response.
    ///
    /// ```swift
    /// let (body, head) = try await transport.stream(for: request)
    /// for try await chunk in body { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// The body is bounded by ``Policies/maximumResponseBytes``: past it, a read throws
    /// `URLError(.dataLengthExceedsMaximum)`. FoundationNetworking cannot pause a transfer, so
    /// the bytes a slow reader has not read yet wait in memory, up to
    /// ``Configuration/maximumUnreadBytes`` (see ``streamingEngine``).
    ///
    /// - Parameter body: the request body; `nil` sends the request's own `httpBody`.
    /// The head's ``ResponseHead/metrics`` say when it arrived (``ExchangeMetrics/firstByte``);
    /// the body's ``ResponseBody/metrics`` add the total and the body's bytes once it has ended.
    /// FoundationNetworking shows nothing below the head.
    ///
    /// - Throws: what ``data(for:)`` throws, for failures before the head; a read of the body
    ///   throws the engine's `URLError` for failures after it. Either carries what was measured
    ///   until then (``Foundation/URLError/exchangeMetrics``).
    public func stream(for request: URLRequest, uploading body: UploadBody? = nil) async throws -> (ResponseBody, ResponseHead) {
        try await layeredStreaming(request, body)
    }

    /// This transport as a ``StreamingNetworking`` value: ``streamingEngine`` with the
    /// configuration's ``Policies`` layers over it, as ``stream(for:uploading:)`` sends.
    public var streaming: StreamingNetworking { layeredStreaming }

    /// One streamed exchange and nothing else, as ``engine`` is for buffered ones: every 3xx is
    /// returned as it is, the body is bounded by ``Policies/maximumResponseBytes``, and no
    /// policy layer runs.
    ///
    /// FoundationNetworking cannot pause a transfer, so a reader slower than the network does
    /// not slow the server down: the bytes it has not read wait in the body, up to
    /// ``Configuration/maximumUnreadBytes``, past which the body fails. Use `CurlTransport` to
    /// read large bodies slowly in bounded memory. A ``UploadBody/stream(_:length:)`` body is written
    /// to a temporary file before it is sent (FoundationNetworking can only wait for a body's
    /// bytes without blocking when they come from a file); data and files are sent as they are.
    /// A transport made with ``init(session:)`` has no delegate of Courier's and buffers each
    /// body whole.
    public var streamingEngine: StreamingNetworking {
        Self.streamingEngine(session: session, tasks: tasks, delegate: delegate, contentDecoding: configuration.contentDecoding)
    }

    static func streamingEngine(
        session: URLSession, tasks: TaskQueue, delegate: SessionDelegate?, contentDecoding: Configuration.ContentDecoding
    ) -> StreamingNetworking {
        guard let delegate else {
            return streamingExchange(
                buffering: exchangeEngine(session: session, tasks: tasks, delegate: nil, contentDecoding: contentDecoding)
            )
        }
        return { request, upload in
            try await session.courierStream(
                for: prepared(request, uploading: upload, contentDecoding: contentDecoding), uploading: upload,
                tasks: tasks, delegate: delegate
            )
        }
    }
}

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
