#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierMetrics
import CourierTracing
import Foundation
import Logging

func observedTransport() -> URLSessionTransport {
    var logger = Logger(label: "app.http")                 // the app bootstraps swift-log, never Courier
    logger.logLevel = .debug                               // swift-log's default, .info, hides every success
    var policies = Policies()
    policies.callLayers = [
        tracing(),                                         // a client span, traceparent sent along
        recordingMetrics(),                                // courier_requests_total, _request_duration, _requests_in_flight
        logging(to: logger),                               // one line per call at .debug, failures at .info
    ]
    return URLSessionTransport(configuration: .init(policies: policies))
}

func fetchObserved(_ path: String, baseURL: URL) async throws -> Int {
    let client = APIClient(baseURL: baseURL, transport: observedTransport())
    let (data, head) = try await client.response(to: Request<Data>(path))
    print(head.statusCode, head.metrics.total ?? .zero)
    return data.count
}
