#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSession {
    /// One task whose body is collected and returned whole with its head. Without Courier's
    /// delegate (a session given to ``URLSessionTransport/init(session:)``), a completion
    /// handler collects the body.
    ///
    /// A failure carries what could be measured around the task until then
    /// (``Foundation/URLError/exchangeMetrics``). `upload`, when given, is sent by an upload
    /// task in place of the request's own body.
    func courierData(
        for request: URLRequest, uploading upload: Data? = nil, tasks: URLSessionTransport.TaskQueue,
        delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> (Data, ResponseHead) {
        var request = try outgoing(request)
        if upload != nil {
            request.httpBody = nil
            request.httpBodyStream = nil
        }
        let exchange = URLSessionTransport.Exchange(
            collecting: request, tasks: tasks, upload: upload.map { .data($0) }, bodyLimit: delegate?.maximumResponseBytes ?? .max
        )
        guard case .collected(let data, let head) = try await run(exchange, delegate: delegate) else {
            // Unreachable by construction; an error rather than a trap, should that ever change.
            throw URLError(.unknown, "the engine answered a collected exchange with a stream", url: request.url)
        }
        return (data, head)
    }

    /// One task whose head is returned as soon as it arrives and whose body is written to a
    /// ``ResponseBody`` as the delegate receives it. A download into a file
    /// (``ResponseBodyDestination/file``) has no body limit; its memory is the unread limit.
    ///
    /// Every upload goes out through an upload task, never as the request's own body (see
    /// ``URLSessionTransport/Exchange/Upload``): bytes in memory as its data; a file as its
    /// file, which FoundationNetworking reads in pieces as it sends; a stream spooled to a file
    /// first (see ``URLSessionTransport/UploadSpool``).
    func courierStream(
        for request: URLRequest, uploading upload: RequestBody?, tasks: URLSessionTransport.TaskQueue,
        delegate: URLSessionTransport.SessionDelegate
    ) async throws -> (ResponseBody, ResponseHead) {
        var request = try outgoing(request)
        var sent: URLSessionTransport.Exchange.Upload?
        var spool: URLSessionTransport.UploadSpool?
        if let upload {
            request.httpBody = nil
            request.httpBodyStream = nil
            switch upload.source {
            case .data(let data):
                sent = .data(data)
            case .file(let url):
                sent = .file(url)
            case .chunks:
                do {
                    let written = try await URLSessionTransport.UploadSpool.write(upload)
                    spool = written
                    sent = .file(written.file)
                } catch is CancellationError {
                    throw URLError.cancelled(url: request.url)
                } catch {
                    // As the curl engine reports a producer that threw while it sent.
                    throw URLError.uploadFailed(error, url: request.url)
                }
            }
        }
        let exchange = URLSessionTransport.Exchange(
            streaming: request, tasks: tasks, upload: sent, spool: spool, sendObserver: upload?.readObserver,
            unreadLimit: delegate.maximumUnreadBytes,
            bodyLimit: ResponseBodyDestination.current.limit(inMemory: delegate.maximumResponseBytes)
        )
        guard case .streamed(let storage, let head) = try await run(exchange, delegate: delegate) else {
            throw URLError(.unknown, "the engine answered a streamed exchange with a collected body", url: request.url)
        }
        return (ResponseBody(storage), head)
    }

    /// `request` with the session's timeout; throws when the calling task is cancelled already.
    private func outgoing(_ request: URLRequest) throws(URLError) -> URLRequest {
        let request = withSessionTimeout(request)
        // A task cancelled before it got here sends nothing. Its cancellation would otherwise
        // reach FoundationNetworking only through the task queue, after `resume()` had
        // already put the request on the wire.
        try Task.checkCancellation(url: request.url)
        return request
    }

    /// Creates and runs `exchange`'s task on its task queue, and returns what the exchange
    /// answers. The idle timeout FoundationNetworking cannot keep is kept only with Courier's
    /// delegate, which restarts it on every event.
    private func run(
        _ exchange: URLSessionTransport.Exchange, delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> URLSessionTransport.Exchange.Answer {
        let idleTimeout = delegate == nil ? nil : URLSessionTransport.IdleTimeout.start(for: exchange)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                exchange.tasks.start {
                    let request = exchange.request.wholeSecondTimeout
                    let task: URLSessionTask
                    if let delegate {
                        switch exchange.upload {
                        case .data(let data)?: task = self.uploadTask(with: request, from: data)
                        case .file(let file)?: task = self.uploadTask(with: request, fromFile: file)
                        case nil: task = self.dataTask(with: request)
                        }
                        delegate.register(exchange, for: task, idleTimeout: idleTimeout)
                    } else {
                        let complete = { @Sendable (data: Data?, response: URLResponse?, error: (any Error)?) in
                            exchange.complete(data: data, response: response, error: error, challenged: nil)
                        }
                        switch exchange.upload {
                        case .data(let data)?: task = self.uploadTask(with: request, from: data, completionHandler: complete)
                        case .file(let file)?: task = self.uploadTask(with: request, fromFile: file, completionHandler: complete)
                        case nil: task = self.dataTask(with: request, completionHandler: complete)
                        }
                    }
                    exchange.start(task, continuation: continuation)
                } refuse: {
                    idleTimeout?.cancel()
                    exchange.refuse(continuation, with: URLSessionTransport.shutDownError(url: exchange.request.url))
                }
            }
        } onCancel: {
            exchange.cancel()
        }
    }

    /// `request` with the session's idle timeout when it sets none, clamped to what
    /// FoundationNetworking can express. A fraction of a second is kept: the delegate enforces
    /// it (see ``URLSessionTransport/IdleTimeout``) and FoundationNetworking gets
    /// ``URLRequest/wholeSecondTimeout``.
    func withSessionTimeout(_ request: URLRequest) -> URLRequest {
        var request = request
        if request.timeoutInterval == 0 {
            request.timeoutInterval = configuration.timeoutIntervalForRequest
        }
        if request.timeoutInterval > URLRequest.maximumTimeoutInterval {
            request.timeoutInterval = URLRequest.maximumTimeoutInterval
        }
        return request
    }
}

extension URLRequest {
    /// This request with its timeout rounded up to whole seconds, as FoundationNetworking counts
    /// them (it truncates, so 0.5 s would time out at once).
    var wholeSecondTimeout: URLRequest {
        var request = self
        request.timeoutInterval = URLSessionTransport.IdleTimeout.sessionTimeout(for: timeoutInterval)
        return request
    }
}
