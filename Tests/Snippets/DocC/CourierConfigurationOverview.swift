import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Foundation

func configuredClient(baseURL: URL) throws -> APIClient {
    let config = ConfigReader(provider: EnvironmentVariablesProvider())
    let transport = try Transport.makeTransport(config: config.scoped(to: "courier"))
    return APIClient(baseURL: baseURL, exchange: transport.exchange)
}
