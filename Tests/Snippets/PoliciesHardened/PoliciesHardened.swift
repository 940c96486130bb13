import Courier
import CourierCurl
import Foundation

func hardenedClient(baseURL: URL) throws -> APIClient {
    var policies = Policies()
    policies.idleTimeout = 10                                   // the longest silence, connecting included
    policies.totalDeadline = 30                                 // the whole call, redirects included
    policies.redirects.maximumRedirects = 5
    policies.redirects.sensitiveHeaderNames = ["X-Api-Key"]     // dropped across origins, as Authorization is
    policies.maximumResponseBytes = 8 << 20                     // decoded bytes; bombs stop here
    policies.cookies = CookieStore()                            // RFC 6265, in memory, on every hop
    policies.userAgent = "Inventory/2.1"                        // nil sends "<process> Courier/<version>"
    policies.headers = ["Accept": "application/json"]           // on every request that sets none
    var configuration = CurlTransport.Configuration()
    configuration.policies = policies
    return APIClient(baseURL: baseURL, transport: try CurlTransport(configuration: configuration))
}
