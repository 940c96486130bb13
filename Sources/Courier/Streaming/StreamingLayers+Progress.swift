#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension StreamingLayers {
    /// Reports each exchange's ``TransferProgress`` to `observer` while the request body is sent
    /// and the response body read, on either transport.
    ///
    /// ```swift
    /// let networking = layered(transport.streaming, [
    ///     StreamingLayers.reportingProgress { progress in print(progress.bytesReceived) },
    /// ])
    /// ```
    ///
    /// Bytes sent are counted as the engine takes them from the ``RequestBody`` (so they run a
    /// buffer's worth ahead of the socket); bytes received as the reader takes chunks from the
    /// ``ResponseBody``, so a reader that stops reading sees progress stop. `observer` is called
    /// at most once per `interval`, and always for the response head, for the last byte of the
    /// request body and for the end of the response body, whose report has
    /// ``TransferProgress/isFinished`` set. It is called on the engine's thread for the upload
    /// and on the reading task for the download, never twice at once, and must return quickly.
    ///
    /// Put it outermost, so that a redirect's body, dropped by the redirect layer, is not counted.
    package static func reportingProgress(
        every interval: Duration = .milliseconds(100), _ observer: @escaping @Sendable (TransferProgress) -> Void
    ) -> StreamingNetworkingLayer {
        ExchangeLayer { next in
            { request, upload in
                let reporter = ProgressReporter(interval: interval, observer: observer)
                reporter.set { $0.expectedBytesToSend = Self.expectedBytesToSend(request, upload) }
                let observed = upload.map { upload in
                    upload.observingReads { sent in
                        reporter.update(force: sent == upload.length) { $0.bytesSent = sent }
                    }
                }
                let (body, response) = try await next(request, observed)
                let expected = Self.expectedBytesToReceive(response)
                reporter.update(force: true) { $0.expectedBytesToReceive = expected }
                let counted = body.observingChunks { chunk in
                    guard let chunk else {
                        reporter.update(force: true) { progress in
                            progress.expectedBytesToReceive = progress.bytesReceived
                            progress.isFinished = true
                        }
                        return
                    }
                    reporter.update(force: false) { progress in
                        progress.bytesReceived += Int64(chunk.count)
                        if let total = progress.expectedBytesToReceive, progress.bytesReceived > total {
                            progress.expectedBytesToReceive = nil
                        }
                    }
                }
                return (counted, response)
            }
        }
    }

    private static func expectedBytesToSend(_ request: URLRequest, _ upload: RequestBody?) -> Int64? {
        if let upload { return upload.length }
        if let body = request.httpBody { return Int64(body.count) }
        if request.httpBodyStream != nil {
            return request.value(forHTTPHeaderField: "Content-Length").flatMap { Int64($0) }
        }
        return 0
    }

    /// `Content-Length`, unless the body is content-encoded (the length of the encoded bytes
    /// says little about the decoded ones read).
    private static func expectedBytesToReceive(_ head: ResponseHead) -> Int64? {
        if let encoding = head.headerFields["Content-Encoding"], !encoding.isEmpty, encoding.lowercased() != "identity" {
            return nil
        }
        return head.headerFields["Content-Length"]
            .flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// One exchange's progress and when it was last reported.
private final class ProgressReporter: Sendable {
    private struct State {
        var progress = TransferProgress()
        var lastReport: ContinuousClock.Instant?
    }

    private let interval: Duration
    private let observer: @Sendable (TransferProgress) -> Void
    private let state = Locked(State())
    /// Held while the observer runs, so reports from the engine's thread and the reading task
    /// never overlap and arrive in the order they were taken.
    private let reporting = Locked(())

    init(interval: Duration, observer: @escaping @Sendable (TransferProgress) -> Void) {
        self.interval = interval
        self.observer = observer
    }

    /// Applies `change` without reporting it.
    func set(_ change: (inout TransferProgress) -> Void) {
        state.withLock { change(&$0.progress) }
    }

    /// Applies `change`, and reports the result when `force` is set or `interval` has passed.
    func update(force: Bool, _ change: (inout TransferProgress) -> Void) {
        let now = ContinuousClock.now
        reporting.withLock { _ in
            let report = state.withLock { state -> TransferProgress? in
                change(&state.progress)
                if !force, let last = state.lastReport, last.duration(to: now) < interval { return nil }
                state.lastReport = now
                return state.progress
            }
            if let report { observer(report) }
        }
    }
}
