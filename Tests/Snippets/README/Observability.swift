import Courier
import CourierCurl
import CourierLogging
import CourierMetrics
import CourierTracing
import Foundation
import Logging

func observedClient(baseURL: URL) throws -> APIClient {
    let transport = try CurlTransport()
    let logger = Logger(label: "app.http")                 // bootstrapped by the app, never by Courier
    let exchange = layered(transport.exchange, [
        tracing(),                                         // a client span, traceparent sent along
        recordingMetrics(),                                // courier_requests_total, _request_duration, _requests_in_flight
        logging(to: logger, level: .debug),                // one line per exchange, failures at .info
    ])
    return APIClient(baseURL: baseURL, exchange: exchange)
}
