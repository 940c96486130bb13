#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Logging
import Synchronization

/// A layer that logs one line per exchange to `logger`: at `level` when a response came (any
/// status: a 404 is a response), at `failureLevel` when the exchange threw. A streamed call
/// logs a second line, with the same request id, when its body ends (see below).
///
/// The message is fixed (`HTTP exchange` or `HTTP exchange failed`) and what varies is in the
/// metadata, as swift-log's convention asks, so that a log backend can index it:
///
/// | key | value |
/// |---|---|
/// | `request_id` | the request's `X-Request-ID` field when it has one, else a number counted per process |
/// | `http.request.method` | `GET` |
/// | `url.full` | the URL without its password, query secrets or fragment (see below) |
/// | `http.response.status_code` | `200` |
/// | `duration_ms` | the whole call, redirects included (for a streamed call's head line, until its head), e.g. `12.345`: as this layer timed it, or for a failure as the engine measured it until it failed, where the error carries that |
/// | `http.response.body.size` | bytes of the body as the caller gets it; for a streamed call, on the line of its end |
/// | `http.response.body.wire_size` | bytes on the wire, where the engine measured them |
/// | `connection_reused` | `true` or `false`, where the engine knows (for a failure too) |
/// | `courier.response.source` | `cache` or `revalidated` when the cache (`Policies.cache`) answered; absent for the network |
/// | `network.protocol.version` | `1.1`, `2` |
/// | `redirects` | hops followed before this response or failure, when any |
/// | `attempts` | attempts made, this one included, when the request was retried (see `Policies.retries`) |
/// | `error.type`, `error.message` | on failure: `URLError.timedOut`, and what happened as Courier describes it |
///
/// A streamed call's head line is written when its head arrives, while the body may still be
/// arriving. When the body ends, a second line tells of it: `HTTP response body ended` at
/// `level`, or `HTTP response body failed` at `failureLevel` when it broke off, its reader
/// cancelled it or dropped it before its end (`URLError.cancelled`), or a deadline ended it.
/// It carries the head line's `request_id`, method, URL and status, `duration_ms` from the
/// start of the call to the end of the body, `http.response.body.size` as the bytes of the body
/// that arrived, what the engine measured of the whole exchange when it had said so by then,
/// and `error.type` and `error.message` for a failure.
///
/// The URL is redacted as everywhere Courier writes one: a password reads `xxxxx`; so does the
/// value of a query item whose name looks like a secret (`token`, `key`, `secret`, `password`,
/// `signature`, `auth`, `session`, `credential`, `sig`, `code`, and names containing them, such
/// as `api_key` or `X-Amz-Signature`); the fragment is dropped.
///
/// The layer never bootstraps logging, and when neither level is enabled on `logger` it only
/// compares the levels and calls through. A response is logged at `debug` by default, below
/// swift-log's default `info`: a logger left at `info` shows failures (`info`) and no successful
/// exchange. Lower the logger's level, or pass `level: .info`, to see every exchange.
///
/// ```swift
/// var policies = Policies()
/// policies.callLayers = [logging(to: Logger(label: "app.http"))]
/// let transport = URLSessionTransport(configuration: .init(policies: policies))
/// ```
///
/// - Parameters:
///   - logger: Where to log; its metadata is kept and added to.
///   - level: The level of a line for a response; `debug` by default.
///   - failureLevel: The level of a line for a failure; by default the level above `level`.
public func logging(to logger: Logger, level: Logger.Level = .debug, failureLevel: Logger.Level? = nil) -> some HTTPExchangeLayer {
    LoggingLayer(logger: logger, level: level, failureLevel: failureLevel ?? level.next)
}

/// The layer ``logging(to:level:failureLevel:)`` makes.
private struct LoggingLayer: HTTPExchangeLayer {
    let logger: Logger
    let level: Logger.Level
    let failureLevel: Logger.Level

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        guard logger.logLevel <= level || logger.logLevel <= failureLevel else { return try await next(request) }
        var metadata: Logger.Metadata = [
            "request_id": .string(requestID(of: request)),
            "http.request.method": .string(request.httpMethod ?? "GET"),
            "url.full": .string(request.url?.redactedString ?? "no URL"),
        ]
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let (body, head) = try await next(request)
            metadata["duration_ms"] = .string(milliseconds(clock.now - start))
            // A streamed body is still arriving: its size is not known yet.
            metadata.addResponse(head, bodySize: (body as? Data)?.count)
            logger.log(level: level, "HTTP exchange", metadata: metadata)
            if let socket = webSocketEndSignal(of: body) {
                // The 101 is the socket's start: its close is a line of its own, with the same id.
                socket.whenEnded { [logger, level, failureLevel, metadata] ending in
                    logWebSocketEnd(ending, to: logger, level: level, failureLevel: failureLevel, handshake: metadata)
                }
            } else if let streamed = body as? ResponseBody {
                // The head is the body's start: its end is a line of its own, with the same id.
                streamed.whenEnded { [logger, level, failureLevel, metadata] ending in
                    logBodyEnd(ending, after: ending.instant - start, to: logger, level: level, failureLevel: failureLevel, head: metadata)
                }
            }
            return (body, head)
        } catch {
            // An exchange that failed after it started carries what the engine measured
            // (URLError.exchangeMetrics): how long it ran on the wire, and how far it got.
            let measured = ExchangeMetrics(failure: error)
            metadata["duration_ms"] = .string(milliseconds(measured?.wholeCallDuration ?? clock.now - start))
            if let measured { metadata.addMetrics(measured) }
            metadata["error.type"] = .string(errorType(of: error))
            metadata["error.message"] = .string(readableMessage(for: error))
            if let attempts = (error as? URLError)?.attemptCount { metadata["attempts"] = .stringConvertible(attempts) }
            logger.log(level: failureLevel, "HTTP exchange failed", metadata: metadata)
            throw error
        }
    }
}

/// "HTTP response body ended" with the body's bytes and the whole call's duration, or "HTTP
/// response body failed" with the error, at the failure level; with the head's request id,
/// method, URL and status.
private func logBodyEnd(
    _ ending: ResponseBodyEnding, after duration: Duration, to logger: Logger, level: Logger.Level, failureLevel: Logger.Level,
    head: Logger.Metadata
) {
    var metadata = head.filter { ["request_id", "http.request.method", "url.full", "http.response.status_code"].contains($0.key) }
    metadata["duration_ms"] = .string(milliseconds(duration))
    metadata["http.response.body.size"] = .stringConvertible(ending.bytes)
    if let measured = ending.metrics { metadata.addMetrics(measured) }
    guard let error = ending.error else {
        logger.log(level: level, "HTTP response body ended", metadata: metadata)
        return
    }
    metadata["error.type"] = .string(errorType(of: error))
    metadata["error.message"] = .string(readableMessage(for: error))
    logger.log(level: failureLevel, "HTTP response body failed", metadata: metadata)
}

/// "WebSocket closed" with the close code, reason and who closed first, or "WebSocket failed"
/// with the error, at the failure level; with the handshake's request id, method and URL.
private func logWebSocketEnd(
    _ ending: WebSocketEnding, to logger: Logger, level: Logger.Level, failureLevel: Logger.Level, handshake: Logger.Metadata
) {
    var metadata: Logger.Metadata = handshake.filter { ["request_id", "http.request.method", "url.full"].contains($0.key) }
    metadata["duration_ms"] = .string(milliseconds(ending.duration))
    if let error = ending.error {
        metadata["error.type"] = .string(errorType(of: error))
        metadata["error.message"] = .string(readableMessage(for: error))
        logger.log(level: failureLevel, "WebSocket failed", metadata: metadata)
        return
    }
    if let code = ending.code { metadata["websocket.close_code"] = .stringConvertible(code) }
    if !ending.reason.isEmpty { metadata["websocket.close_reason"] = .string(ending.reason) }
    metadata["websocket.closed_by"] = .string(ending.closedByServer ? "server" : "client")
    let normal = ending.isNormalCode || !ending.closedByServer
    logger.log(level: normal ? level : failureLevel, "WebSocket closed", metadata: metadata)
}

/// The header field whose value, when a request has one, is its id in the log.
public let requestIDField = "X-Request-ID"

extension Logger.Metadata {
    fileprivate mutating func addResponse(_ head: ResponseHead, bodySize: Int?) {
        self["http.response.status_code"] = .stringConvertible(head.statusCode)
        if let bodySize { self["http.response.body.size"] = .stringConvertible(bodySize) }
        self["network.protocol.version"] = .string(head.httpVersion.protocolVersion)
        addMetrics(head.metrics)
    }

    /// What the engine measured, of a response or of a failure.
    fileprivate mutating func addMetrics(_ metrics: ExchangeMetrics) {
        if let wire = metrics.responseBodyBytes { self["http.response.body.wire_size"] = .stringConvertible(wire) }
        if let reused = metrics.connectionReused { self["connection_reused"] = .stringConvertible(reused) }
        if metrics.source != .network { self["courier.response.source"] = .string(metrics.source.description) }
        if !metrics.redirects.isEmpty { self["redirects"] = .stringConvertible(metrics.redirects.count) }
        if !metrics.attempts.isEmpty { self["attempts"] = .stringConvertible(metrics.attempts.count + 1) }
    }
}

extension Logger.Level {
    /// The level above this one; `critical` for `critical`.
    var next: Logger.Level {
        switch self {
        case .trace: .debug
        case .debug: .info
        case .info: .notice
        case .notice: .warning
        case .warning: .error
        case .error, .critical: .critical
        }
    }
}

/// The ids of requests that carry none: counted per process, so that two clients' lines never
/// share one.
private let requestCounter = Atomic<Int>(0)

private func requestID(of request: URLRequest) -> String {
    if let given = request.value(forHTTPHeaderField: requestIDField), !given.isEmpty { return given }
    return String(requestCounter.add(1, ordering: .relaxed).newValue)
}

private func milliseconds(_ duration: Duration) -> String {
    String(format: "%.3f", Double(duration.nanoseconds) / 1_000_000)
}
