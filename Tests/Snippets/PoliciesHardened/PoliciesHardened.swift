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
    var configuration = CurlTransport.Configuration()
    configuration.policies = policies
    return APIClient(baseURL: baseURL, transport: try CurlTransport(configuration: configuration))
}

func underSharedPolicies(_ networking: @escaping Networking) -> Networking {
    var policies = Policies()
    policies.totalDeadline = 10
    return policies.apply(to: networking)                       // a Networking of your own, with the same layers
}
