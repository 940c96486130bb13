import Courier
import CourierCurl
import Foundation

func hardenedClient(baseURL: URL) throws -> APIClient {
    var policies = Policies()
    policies.totalDeadline = 30                                 // seconds, redirects included
    policies.redirects.maximumRedirects = 5
    policies.redirects.sensitiveHeaderNames = ["X-Api-Key"]     // dropped across origins, as Authorization is
    policies.maximumResponseBytes = 8 << 20                     // decoded bytes; bombs stop here
    policies.cookies = CookieStore()                            // RFC 6265, in memory, on every hop
    var configuration = CurlTransport.Configuration()
    configuration.policies = policies
    return APIClient(baseURL: baseURL, networking: try CurlTransport(configuration: configuration).networking)
}

func ownStack(over transport: URLSessionTransport) -> Networking {
    layered(transport.engine, [describingErrors(), totalDeadline(10), followingRedirects(), validatingResponses()])
}
