#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Tracing

/// A layer that wraps every exchange in a client span and sends the trace context along with
/// the request, as AsyncHTTPClient does.
///
/// The span is named after the method (`GET`), a child of the task's current
/// `ServiceContext`, and carries OpenTelemetry's HTTP client attributes:
///
/// | attribute | value |
/// |---|---|
/// | `http.request.method` | `GET` |
/// | `url.full` | the URL without its password, query secrets or fragment, as Courier's log lines show it |
/// | `server.address`, `server.port` | the URL's host and port (the scheme's default when it names none) |
/// | `http.response.status_code` | `200` |
/// | `network.protocol.version` | `1.1`, `2` |
/// | `http.request.resend_count` | redirects followed and attempts retried, when any |
/// | `courier.response.source` | `cache` or `revalidated` when the cache (`Policies.cache`) answered |
/// | `error.type` | the status code for 400 and above; `URLError.timedOut` or the error's type for a failure |
/// | `http.response.body.size` | for a streamed call, the bytes of its body that arrived |
///
/// A streamed call's span stays open after the head, until its body ends: read to its end,
/// broken off, cancelled or dropped by its reader (`URLError.cancelled`), or ended by a
/// deadline. Then it records the bytes of the body that arrived and, for a body that did not
/// arrive whole, the failure as for an exchange that threw.
///
/// The span's status is an error for a failure and, as OpenTelemetry asks of client spans,
/// for a status of 400 or above; a failure is recorded on the span as a ``RecordedFailure``,
/// which keeps its kind and Courier's redacted message but not the URL. Where the engine
/// measured the phases (`CurlTransport` does; `URLSessionTransport` measures only the first byte
/// and the total), each becomes an event at the time it ended, named after its
/// ``/Courier/ExchangeMetrics`` field: `queued`, `nameLookup`, `connect`, `secureConnect`, `requestSent`,
/// `firstByte`. A failed exchange's span gets the events of the phases it reached, and ends
/// when the engine measured its end, from what its error carries (`URLError.exchangeMetrics`).
///
/// The context goes into the request's header fields through the instrument's `inject`, so its
/// format is the instrument's: a W3C tracer such as swift-otel's writes `traceparent` (and
/// `tracestate`). The exchange below runs with the span's context as the current one.
///
/// With no tracer bootstrapped and none given, the tracer is swift-distributed-tracing's no-op
/// one, and the layer calls straight through: no span, no injected field.
///
/// ```swift
/// var policies = Policies()
/// policies.callLayers = [tracing()]
/// let transport = URLSessionTransport(configuration: .init(policies: policies))
/// ```
///
/// - Parameter tracer: The tracer to start spans with and inject through. By default, at each
///   exchange, `InstrumentationSystem.tracer` for the span and `InstrumentationSystem.instrument`
///   for the injection, so a task-local `withTracer` scope and every instrument the app
///   bootstrapped take part.
public func tracing(tracer: (any Tracer)? = nil) -> some HTTPExchangeLayer {
    TracingLayer(tracer: tracer)
}

/// The layer ``tracing(tracer:)`` makes.
private struct TracingLayer: HTTPExchangeLayer {
    let tracer: (any Tracer)?

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        let method = request.httpMethod ?? "GET"
        let spanTracer = tracer ?? InstrumentationSystem.tracer
        // With no tracer bootstrapped a span would record nothing: skip its cost entirely.
        if spanTracer is NoOpTracer { return try await next(request) }
        let start = DefaultTracerClock.now
        let span = spanTracer.startSpan(method, context: ServiceContext.current ?? .topLevel, ofKind: .client, at: start)
        var end: DefaultTracerClock.Timestamp?
        // A WebSocket's span lasts as long as the socket, and ends with its close; a streamed
        // call's lasts until its body ends.
        var endsLater = false
        defer {
            if !endsLater {
                if let end { span.end(at: end) } else { span.end() }
            }
        }
        span.attributes.addRequest(request, method: method)
        var sent = request
        if let tracer {
            tracer.inject(span.context, into: &sent, using: URLRequestInjector())
        } else {
            InstrumentationSystem.instrument.inject(span.context, into: &sent, using: URLRequestInjector())
        }
        do {
            let (body, head) = try await ServiceContext.$current.withValue(span.context) { [sent] in
                try await next(sent)
            }
            span.recordResponse(head, startedAt: start)
            if let socket = webSocketEndSignal(of: body) {
                endsLater = true
                socket.whenEnded { ending in span.recordWebSocketEnd(ending) }
            } else if let streamed = body as? ResponseBody {
                endsLater = true
                streamed.whenEnded { ending in span.recordBodyEnd(ending) }
            }
            return (body, head)
        } catch {
            if let measured = ExchangeMetrics(failure: error) {
                span.recordMetrics(measured, startedAt: start)
                end = measured.wholeCallDuration.map { start.advanced(by: $0) }
            }
            let failure = RecordedFailure(error)
            span.attributes["error.type"] = failure.type
            span.recordError(failure)
            span.setStatus(SpanStatus(code: .error, message: failure.message))
            throw error
        }
    }
}

/// What the span records of a failed exchange in place of the error itself: an exporter writes
/// a recorded error's description out, and a `URLError`'s names the URL with its query, secrets
/// included. The error still reaches the caller unchanged.
public struct RecordedFailure: Error, CustomStringConvertible, Sendable {
    /// `URLError.timedOut`, or the error's type name.
    public let type: String
    /// What happened, as Courier describes it, with any URL in it redacted.
    public let message: String

    /// The failure `error` describes.
    public init(_ error: any Error) {
        type = errorType(of: error)
        message = readableMessage(for: error)
    }

    public var description: String { "\(type): \(message)" }
}

/// Writes trace context into a request's header fields, replacing a value already there so a
/// retried request never carries two parents.
public struct URLRequestInjector: Injector {
    public init() {}

    public func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}

extension SpanAttributes {
    fileprivate mutating func addRequest(_ request: URLRequest, method: String) {
        self["http.request.method"] = method
        guard let url = request.url else { return }
        self["url.full"] = url.redactedString
        if let host = url.host { self["server.address"] = host }
        if let port = url.port ?? defaultPort(of: url.scheme) { self["server.port"] = port }
    }
}

extension Span {
    fileprivate func recordResponse(_ head: ResponseHead, startedAt start: DefaultTracerClock.Instant) {
        attributes["http.response.status_code"] = head.statusCode
        attributes["network.protocol.version"] = head.httpVersion.protocolVersion
        // OpenTelemetry names no attribute for a client cache; this one is Courier's.
        if head.metrics.source != .network { attributes["courier.response.source"] = head.metrics.source.description }
        if head.statusCode >= 400 {
            attributes["error.type"] = String(head.statusCode)
            setStatus(SpanStatus(code: .error))
        }
        recordMetrics(head.metrics, startedAt: start)
    }

    /// The redirects and the phases the engine measured, of a response or of a failure.
    fileprivate func recordMetrics(_ metrics: ExchangeMetrics, startedAt start: DefaultTracerClock.Instant) {
        // OpenTelemetry counts a request sent again for any reason: redirects and retries alike.
        let resends = metrics.redirects.count + metrics.attempts.count
        if resends > 0 { attributes["http.request.resend_count"] = resends }
        let phases: [(String, Duration?)] = [
            ("queued", metrics.queued), ("nameLookup", metrics.nameLookup), ("connect", metrics.connect),
            ("secureConnect", metrics.secureConnect), ("requestSent", metrics.requestSent),
            ("firstByte", metrics.firstByte),
        ]
        // The metrics count from the start of the last hop, which this span's start precedes by
        // the attempts retried and their waits, then the hops before it: each phase is placed
        // after the whole of those.
        let earlierAttempts = metrics.attempts.reduce(Duration.zero) { $0 + $1.duration + $1.delay }
        let earlierHops = metrics.redirects.reduce(earlierAttempts) { $0 + ($1.total ?? .zero) }
        for case (let name, let duration?) in phases {
            addEvent(SpanEvent(name: name, at: start.advanced(by: earlierHops + duration)))
        }
    }
}

extension DefaultTracerClock.Timestamp {
    /// This instant moved `duration` later (never earlier).
    fileprivate func advanced(by duration: Duration) -> DefaultTracerClock.Timestamp {
        DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: nanosecondsSinceEpoch &+ UInt64(max(0, duration.nanoseconds)))
    }
}

private func defaultPort(of scheme: String?) -> Int? {
    switch scheme?.lowercased() {
    case "http": 80
    case "https": 443
    default: nil
    }
}

extension Span {
    /// The bytes of a streamed body that arrived, and its failure if it had one, then the
    /// span's end.
    fileprivate func recordBodyEnd(_ ending: ResponseBodyEnding) {
        attributes["http.response.body.size"] = ending.bytes
        if let error = ending.error {
            let failure = RecordedFailure(error)
            attributes["error.type"] = failure.type
            recordError(failure)
            setStatus(SpanStatus(code: .error, message: failure.message))
        }
        end()
    }

    /// The close code and who closed first, or the failure, then the span's end.
    fileprivate func recordWebSocketEnd(_ ending: WebSocketEnding) {
        if let error = ending.error {
            let failure = RecordedFailure(error)
            attributes["error.type"] = failure.type
            recordError(failure)
            setStatus(SpanStatus(code: .error, message: failure.message))
        } else {
            if let code = ending.code { attributes["websocket.close_code"] = Int(code) }
            attributes["websocket.closed_by"] = ending.closedByServer ? "server" : "client"
        }
        end()
    }
}
