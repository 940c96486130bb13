// Run-time cost of the observability layers: N sequential small GETs against the test server on
// 127.0.0.1 over CurlTransport's exchange, bare and with each layer composed, in interleaved
// rounds; prints the median µs per request of each. Usage: courier-observability-bench [N] [rounds]
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierLogging
import CourierMetrics
import CourierTestServer
import CourierTracing
import Foundation
import InMemoryTracing
import Logging
import Metrics

/// A layer that only calls through: the cost of being a layer.
struct PassThrough: HTTPExchangeLayer {
    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        try await next(request)
    }
}

/// A handler that formats nothing and keeps nothing, so that what is measured is the layer's
/// own work of building the line.
struct DiscardingLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {}
}

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let count = arguments.first ?? 2000
let rounds = arguments.dropFirst().first ?? 5

let server = try await TestServer.start()
let transport = try CurlTransport()
let request = URLRequest(url: server.url("/bytes/64"))
let debugOn = Logger(label: "bench") { _ in DiscardingLogHandler(logLevel: .debug) }
let debugOff = Logger(label: "bench") { _ in DiscardingLogHandler(logLevel: .notice) }

let cases: [(String, HTTPExchange)] = [
    ("bare exchange", transport.exchange),
    ("a pass-through layer", layered(transport.exchange, [PassThrough()])),
    ("logging, level disabled", layered(transport.exchange, [logging(to: debugOff)])),
    ("logging, level enabled", layered(transport.exchange, [logging(to: debugOn)])),
    ("metrics, no-op backend", layered(transport.exchange, [recordingMetrics()])),
    ("tracing, no tracer", layered(transport.exchange, [tracing()])),
    ("tracing, in-memory tracer", layered(transport.exchange, [tracing(tracer: InMemoryTracer(recordInjections: false))])),
]

for (_, exchange) in cases {
    for _ in 0..<200 { _ = try await exchange(request) }
}
var samples: [String: [Double]] = [:]
let clock = ContinuousClock()
for _ in 0..<rounds {
    for (name, exchange) in cases {
        let start = clock.now
        for _ in 0..<count { _ = try await exchange(request) }
        let elapsed = clock.now - start
        let micros = Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12
        samples[name, default: []].append(micros / Double(count))
    }
}
let bare = (samples["bare exchange"] ?? []).sorted()[rounds / 2]
print("\(count) sequential GETs of 64 bytes, CurlTransport.exchange, median of \(rounds) interleaved rounds")
for (name, _) in cases {
    let median = (samples[name] ?? []).sorted()[rounds / 2]
    print(name.padding(toLength: 28, withPad: " ", startingAt: 0) + String(format: "%7.2f µs/req  %+6.1f%%", median, (median / bare - 1) * 100))
}
await transport.shutdown()
try await server.shutdown()
