import Courier
import CourierCurl
import Foundation

func timedRepos(of user: String, baseURL: URL) async throws {
    let transport = try CurlTransport()
    let client = APIClient(baseURL: baseURL, exchange: transport.exchange)   // no HTTPURLResponse built
    let (repos, head) = try await client.response(to: .repos(of: user))
    print(repos.count, head.statusCode, head.httpVersion, head.headerFields["ETag"] ?? "no ETag")
    let metrics = head.metrics                                   // nil where an engine cannot measure
    print(metrics.firstByte ?? .zero, metrics.total ?? .zero, metrics.redirects.count)
    await transport.shutdown()
}
