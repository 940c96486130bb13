#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierMetrics
import CourierTracing
import Foundation
import Logging

func observedExchange(over transport: some HTTPTransport) -> HTTPExchange {
    var logger = Logger(label: "app.http")                 // the app bootstraps swift-log, never Courier
    logger.logLevel = .debug                               // swift-log's default, .info, hides every success
    return layered(transport.exchange, [
        tracing(),                                         // a client span, traceparent sent along
        recordingMetrics(),                                // courier_requests_total, _request_duration, _requests_in_flight
        logging(to: logger),                               // one line per exchange at .debug, failures at .info
    ])
}

func fetchObserved(_ url: URL, over transport: some HTTPTransport) async throws -> Int {
    let (data, head) = try await observedExchange(over: transport)(URLRequest(url: url))
    print(head.statusCode, head.metrics.total ?? .zero)
    return data.count
}
