#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CoreMetrics
import Foundation
import Synchronization

/// A layer that records every exchange in swift-metrics: how many, how long, and how many are
/// under way.
///
/// | metric | type | dimensions |
/// |---|---|---|
/// | `<prefix>_requests_total` | `Counter`, one per exchange when it ends | `method`, `host`, `status_class` |
/// | `<prefix>_request_duration` | `Timer`, nanoseconds, the whole call, redirects included (for a streamed call, until its body ends; see below) | `method`, `host`, `status_class` |
/// | `<prefix>_requests_in_flight` | `Meter`, up when a call starts and down when it ends | `method`, `host` |
/// | `<prefix>_response_body_bytes` | `Recorder`, the bytes of a streamed call's body that arrived, when it ends | `method`, `host`, `status_class` |
/// | `<prefix>_cache_answers_total` | `Counter`, one per exchange the cache (`Policies.cache`) answered | `method`, `host`, `source` (`cache` or `revalidated`) |
///
/// A streamed call ends when its body does, not with its head: it is counted, timed from its
/// start to the end of its body, and leaves the in-flight meter then, with the head's status
/// class, or `error` when the body broke off, was cancelled or dropped by its reader before its
/// end, or passed a deadline.
///
/// `status_class` is `1xx` to `5xx` (`other` for a status outside them), or `error` when the
/// exchange threw. The duration is timed by the layer, except for an exchange that failed after
/// it started: its error carries how long it ran as the engine measured it
/// (`URLError.exchangeMetrics`), and that is recorded. `host` is the URL's host alone: never its user, password, port, path or
/// query. Each dimension is bounded by what the app talks to; an app that calls a host per user
/// should put this layer over a client of a few hosts only.
///
/// Nothing is recorded unless the layer is composed in, and it never bootstraps
/// `MetricsSystem`: it uses `factory`, by default the one the app bootstrapped when the layer
/// was made. Handlers are made once per set of dimensions and kept, so an exchange costs a
/// dictionary lookup, the clock and the handlers' own work.
///
/// ```swift
/// var policies = Policies()
/// policies.callLayers = [recordingMetrics()]
/// let transport = URLSessionTransport(configuration: .init(policies: policies))
/// ```
///
/// - Parameters:
///   - prefix: The start of every metric's label; `courier` by default.
///   - factory: The backend; `MetricsSystem.factory` by default.
public func recordingMetrics(prefix: String = "courier", factory: (any MetricsFactory)? = nil) -> some HTTPExchangeLayer {
    MetricsLayer(instruments: ExchangeInstruments(prefix: prefix, factory: factory ?? MetricsSystem.factory))
}

/// The layer ``recordingMetrics(prefix:factory:)`` makes.
private struct MetricsLayer: HTTPExchangeLayer {
    let instruments: ExchangeInstruments

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        let method = request.httpMethod ?? "GET"
        let host = request.url?.host ?? "none"
        let inFlight = instruments.inFlight(method: method, host: host)
        inFlight.increment()
        // A streamed call is under way until its body ends.
        var endsWithBody = false
        defer { if !endsWithBody { inFlight.decrement() } }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let answer = try await next(request)
            let status = statusClass(answer.1.statusCode)
            if let streamed = answer.0 as? ResponseBody {
                endsWithBody = true
                streamed.whenEnded { [instruments] ending in
                    inFlight.decrement()
                    let statusClass = ending.error == nil ? status : "error"
                    instruments.ended(method: method, host: host, statusClass: statusClass, after: ending.instant - start)
                    instruments.receivedBody(method: method, host: host, statusClass: statusClass, bytes: ending.bytes)
                }
            } else {
                instruments.ended(method: method, host: host, statusClass: status, after: clock.now - start)
            }
            let source = answer.1.metrics.source
            if source != .network { instruments.answeredFromCache(method: method, host: host, source: source) }
            if let socket = webSocketEndSignal(of: answer.0) {
                let open = instruments.openWebSockets(host: host)
                open.increment()
                socket.whenEnded { [instruments] ending in
                    open.decrement()
                    instruments.webSocketEnded(host: host, ending: ending)
                }
            }
            return answer
        } catch {
            let duration = ExchangeMetrics(failure: error)?.wholeCallDuration ?? clock.now - start
            instruments.ended(method: method, host: host, statusClass: "error", after: duration)
            throw error
        }
    }
}

/// The handlers of one layer, made once per set of dimensions: swift-metrics advises against
/// making a metric per event, and some backends do real work (a lock, a registry lookup) in
/// `make…`.
private final class ExchangeInstruments: Sendable {
    private struct Key: Hashable {
        var method: String
        var host: String
        var statusClass: String?
    }

    private struct Ended {
        var requests: Counter
        var duration: CoreMetrics.Timer
    }

    private let prefix: String
    private let factory: any MetricsFactory
    private let ended = Mutex<[Key: Ended]>([:])
    private let inFlight = Mutex<[Key: Meter]>([:])
    private let cacheAnswers = Mutex<[Key: Counter]>([:])
    private let bodyBytes = Mutex<[Key: Recorder]>([:])

    init(prefix: String, factory: any MetricsFactory) {
        self.prefix = prefix
        self.factory = factory
    }

    func inFlight(method: String, host: String) -> Meter {
        let key = Key(method: method, host: host)
        return inFlight.withLock { meters in
            if let meter = meters[key] { return meter }
            let meter = Meter(label: "\(prefix)_requests_in_flight", dimensions: [("method", method), ("host", host)], factory: factory)
            meters[key] = meter
            return meter
        }
    }

    /// Counts an answer from the cache; the key's status class holds the source.
    func answeredFromCache(method: String, host: String, source: ResponseSource) {
        let key = Key(method: method, host: host, statusClass: source.description)
        let counter = cacheAnswers.withLock { counters in
            if let counter = counters[key] { return counter }
            let dimensions = [("method", method), ("host", host), ("source", source.description)]
            let counter = Counter(label: "\(prefix)_cache_answers_total", dimensions: dimensions, factory: factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// Records the bytes of a streamed body that arrived before it ended.
    func receivedBody(method: String, host: String, statusClass: String, bytes: Int) {
        let key = Key(method: method, host: host, statusClass: statusClass)
        let recorder = bodyBytes.withLock { recorders in
            if let recorder = recorders[key] { return recorder }
            let dimensions = [("method", method), ("host", host), ("status_class", statusClass)]
            let recorder = Recorder(label: "\(prefix)_response_body_bytes", dimensions: dimensions, factory: factory)
            recorders[key] = recorder
            return recorder
        }
        recorder.record(bytes)
    }

    /// The WebSockets open to `host`.
    func openWebSockets(host: String) -> Meter {
        let key = Key(method: "WebSocket", host: host)
        return inFlight.withLock { meters in
            if let meter = meters[key] { return meter }
            let meter = Meter(label: "\(prefix)_websockets_open", dimensions: [("host", host)], factory: factory)
            meters[key] = meter
            return meter
        }
    }

    /// Counts a WebSocket's end by its close code ("error" when it failed), and times its life.
    func webSocketEnded(host: String, ending: WebSocketEnding) {
        let close = ending.error == nil ? ending.code.map { String($0) } ?? "none" : "error"
        let key = Key(method: "WebSocket", host: host, statusClass: close)
        let instruments = ended.withLock { instruments in
            if let existing = instruments[key] { return existing }
            let dimensions = [("host", host), ("close_code", close)]
            let made = Ended(
                requests: Counter(label: "\(prefix)_websockets_closed_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: "\(prefix)_websocket_duration", dimensions: dimensions, factory: factory)
            )
            instruments[key] = made
            return made
        }
        instruments.requests.increment()
        instruments.duration.recordNanoseconds(ending.duration.nanoseconds)
    }

    func ended(method: String, host: String, statusClass: String, after duration: Duration) {
        let key = Key(method: method, host: host, statusClass: statusClass)
        let instruments = ended.withLock { instruments in
            if let existing = instruments[key] { return existing }
            let dimensions = [("method", method), ("host", host), ("status_class", statusClass)]
            let made = Ended(
                requests: Counter(label: "\(prefix)_requests_total", dimensions: dimensions, factory: factory),
                duration: CoreMetrics.Timer(label: "\(prefix)_request_duration", dimensions: dimensions, factory: factory)
            )
            instruments[key] = made
            return made
        }
        instruments.requests.increment()
        instruments.duration.recordNanoseconds(duration.nanoseconds)
    }
}
