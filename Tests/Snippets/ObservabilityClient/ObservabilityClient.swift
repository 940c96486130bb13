#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierMetrics
import CourierTracing
import Foundation
import Logging

func observedClient(baseURL: URL, over transport: some HTTPTransport) -> APIClient {
    var logger = Logger(label: "app.http")                 // the app bootstraps swift-log, never Courier
    logger.logLevel = .debug                               // swift-log's default, .info, hides every success
    return APIClient(baseURL: baseURL, transport: transport, layers: [
        tracing(),                                         // a client span, traceparent sent along
        recordingMetrics(),                                // courier_requests_total, _request_duration, _requests_in_flight
        logging(to: logger),                               // one line per exchange at .debug, failures at .info
    ])
}

func fetchObserved(_ path: String, baseURL: URL, over transport: some HTTPTransport) async throws -> Int {
    let (data, head) = try await observedClient(baseURL: baseURL, over: transport).response(to: Request<Data>(path))
    print(head.statusCode, head.metrics.total ?? .zero)
    return data.count
}
