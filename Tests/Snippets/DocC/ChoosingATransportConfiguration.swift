import Courier
import CourierCurl
import Foundation

func makeClient(baseURL: URL) throws -> APIClient {
    // COURIER_TRANSPORT=curl selects CurlTransport; unset or empty means URLSessionTransport.
    let transport = try Transport(environment: ProcessInfo.processInfo.environment)
    return APIClient(baseURL: baseURL, exchange: try transport.makeTransport().exchange)
}
