#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Sends `request`, its body produced from `body` as it goes out, and returns as soon as the
    /// response head arrives, with the body to read as it comes.
    ///
    /// ```swift
    /// let (body, response) = try await transport.stream(for: request)
    /// for try await chunk in body { try file.write(contentsOf: chunk) }
    /// ```
    ///
    /// The head is the bare engine's (``streamingEngine``): every 3xx is returned as it is and
    /// no policy layer runs. The body is bounded by ``Policies/maximumResponseBytes``; past it,
    /// a read throws `URLError(.dataLengthExceedsMaximum)`.
    ///
    /// - Parameter body: the request body; `nil` sends the request's own `httpBody`.
    /// - Throws: what ``data(for:)`` throws, for failures before the head.
    public func stream(for request: URLRequest, uploading body: UploadBody? = nil) async throws -> (ResponseBody, URLResponse) {
        try await streamingEngine(request, body)
    }

    /// One streamed exchange and nothing else, as ``engine`` is for buffered ones.
    ///
    /// FoundationNetworking pauses a task only by taking it off its libcurl multi handle, so a
    /// slow reader's back-pressure reaches the server as a suspended task; see the
    /// ``URLSessionTransport`` article for what that bounds. A transport made with
    /// ``init(session:)`` has no delegate of Courier's and buffers each body whole.
    public var streamingEngine: StreamingNetworking {
        guard let delegate else { return streamingNetworking(buffering: engine) }
        let session = session
        let contentDecoding = configuration.contentDecoding
        return { request, upload in
            try await session.courierStream(
                for: Self.prepared(request, contentDecoding: contentDecoding), uploading: upload, delegate: delegate
            )
        }
    }
}

extension URLSession {
    /// One task whose head is returned as soon as it arrives and whose body is written to a
    /// ``ResponseBody`` as the delegate receives it.
    func courierStream(
        for request: URLRequest, uploading upload: UploadBody?, delegate: URLSessionTransport.SessionDelegate
    ) async throws -> (ResponseBody, URLResponse) {
        var request = withSessionTimeout(request)
        var file: URL?
        if let upload {
            request.httpBody = nil
            request.httpBodyStream = nil
            switch upload.source {
            case .data(let data):
                request.httpBody = data
            case .file(let url):
                file = url
            case .chunks:
                request.httpBody = try await upload.collect()
            }
        }
        let exchange = URLSessionTransport.StreamExchange(request: request, upload: nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task: URLSessionTask
                if let file {
                    task = uploadTask(with: request, fromFile: file)
                } else {
                    task = dataTask(with: request)
                }
                delegate.register(exchange, for: task)
                exchange.start(task, continuation: continuation)
            }
        } onCancel: {
            exchange.cancel()
        }
    }
}
