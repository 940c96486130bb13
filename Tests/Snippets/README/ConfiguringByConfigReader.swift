import Configuration
import Courier
import CourierConfiguration
import CourierCurl

// COURIER_TRANSPORT=curl COURIER_REDIRECTS_MAXIMUM=5 COURIER_TIMEOUTS_TOTAL=30 ./MyService
func configuredTransport() throws -> any HTTPTransport {
    let config = ConfigReader(provider: EnvironmentVariablesProvider())
    return try Transport.makeTransport(config: config.scoped(to: "courier"))
}
