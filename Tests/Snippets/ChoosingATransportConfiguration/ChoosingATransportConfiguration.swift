import Courier
import CourierCurl
import Foundation

func makeClient(baseURL: URL, policies: Policies) throws -> APIClient {
    // COURIER_TRANSPORT=curl selects CurlTransport; unset or empty means URLSessionTransport.
    let kind = try TransportKind(environment: ProcessInfo.processInfo.environment)
    return APIClient(baseURL: baseURL, transport: try kind.makeTransport(policies: policies))
}
