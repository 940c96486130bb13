import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Foundation

func configuredClient(baseURL: URL) throws -> APIClient {
    // COURIER_TRANSPORT=curl COURIER_REDIRECTS_MAXIMUM=5 COURIER_TIMEOUTS_TOTAL=30 ./MyService
    let config = ConfigReader(provider: EnvironmentVariablesProvider())
    let transport = try TransportKind.makeTransport(config: config.scoped(to: "courier"))
    return APIClient(baseURL: baseURL, transport: transport)
}
