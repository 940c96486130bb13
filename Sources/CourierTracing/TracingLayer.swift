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
/// | `error.type` | the status code for 400 and above; `URLError.timedOut` or the error's type for a failure |
///
/// The span's status is an error for a failure and, as OpenTelemetry asks of client spans,
/// for a status of 400 or above; a failure is recorded on the span as a ``RecordedFailure``,
/// which keeps its kind and Courier's redacted message but not the URL. Where the engine
/// measured the phases (`CurlTransport` does; `URLSessionTransport` measures only the first byte
/// and the total), each becomes an event at the time it ended, named after its
/// ``ExchangeMetrics`` field: `queued`, `nameLookup`, `connect`, `secureConnect`, `requestSent`,
/// `firstByte`.
///
/// The context goes into the request's header fields through the instrument's `inject`, so its
/// format is the instrument's: a W3C tracer such as swift-otel's writes `traceparent` (and
/// `tracestate`). The exchange below runs with the span's context as the current one.
///
/// With no tracer bootstrapped and none given, the tracer is swift-distributed-tracing's no-op
/// one, and the layer calls straight through: no span, no injected field.
///
/// ```swift
/// let traced = layered(transport.exchange, [tracing()])
/// ```
///
/// - Parameter tracer: The tracer to start spans with and inject through. By default, at each
///   exchange, `InstrumentationSystem.tracer` for the span and `InstrumentationSystem.instrument`
///   for the injection, so a task-local `withTracer` scope and every instrument the app
///   bootstrapped take part.
public func tracing(tracer: (any Tracer)? = nil) -> HTTPExchangeLayer {
    { exchange in
        { request in
            let method = request.httpMethod ?? "GET"
            let spanTracer = tracer ?? InstrumentationSystem.tracer
            // With no tracer bootstrapped a span would record nothing: skip its cost entirely.
            if spanTracer is NoOpTracer { return try await exchange(request) }
            let start = DefaultTracerClock.now
            let span = spanTracer.startSpan(method, context: ServiceContext.current ?? .topLevel, ofKind: .client, at: start)
            defer { span.end() }
            span.attributes.addRequest(request, method: method)
            var sent = request
            if let tracer {
                tracer.inject(span.context, into: &sent, using: URLRequestInjector())
            } else {
                InstrumentationSystem.instrument.inject(span.context, into: &sent, using: URLRequestInjector())
            }
            do {
                let (data, head) = try await ServiceContext.$current.withValue(span.context) {
                    try await exchange(sent)
                }
                span.recordResponse(head, startedAt: start)
                return (data, head)
            } catch {
                let failure = RecordedFailure(error)
                span.attributes["error.type"] = failure.type
                span.recordError(failure)
                span.setStatus(SpanStatus(code: .error, message: failure.message))
                throw error
            }
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
        self["url.full"] = url.observedString
        if let host = url.host { self["server.address"] = host }
        if let port = url.port ?? defaultPort(of: url.scheme) { self["server.port"] = port }
    }
}

extension Span {
    fileprivate func recordResponse(_ head: ResponseHead, startedAt start: DefaultTracerClock.Instant) {
        attributes["http.response.status_code"] = head.statusCode
        attributes["network.protocol.version"] = head.httpVersion.protocolVersion
        // OpenTelemetry counts a request sent again for any reason: redirects and retries alike.
        let resends = head.metrics.redirects.count + head.metrics.attempts.count
        if resends > 0 { attributes["http.request.resend_count"] = resends }
        if head.statusCode >= 400 {
            attributes["error.type"] = String(head.statusCode)
            setStatus(SpanStatus(code: .error))
        }
        let phases: [(String, Duration?)] = [
            ("queued", head.metrics.queued), ("nameLookup", head.metrics.nameLookup), ("connect", head.metrics.connect),
            ("secureConnect", head.metrics.secureConnect), ("requestSent", head.metrics.requestSent),
            ("firstByte", head.metrics.firstByte),
        ]
        // The metrics count from the start of the last hop, which this span's start precedes by
        // the attempts retried and their waits, then the hops before it: each phase is placed
        // after the whole of those.
        let earlierAttempts = head.metrics.attempts.reduce(Int64(0)) { $0 + ($1.duration + $1.delay).nanoseconds }
        let earlierHops = head.metrics.redirects.reduce(earlierAttempts) { $0 + ($1.total?.nanoseconds ?? 0) }
        for case (let name, let duration?) in phases {
            let offset = max(0, earlierHops + duration.nanoseconds)
            let instant = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: start.nanosecondsSinceEpoch &+ UInt64(offset))
            addEvent(SpanEvent(name: name, at: instant))
        }
    }
}

private func defaultPort(of scheme: String?) -> Int? {
    switch scheme?.lowercased() {
    case "http": 80
    case "https": 443
    default: nil
    }
}
