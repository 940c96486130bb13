#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation

struct Repo: Decodable, Sendable {
    let id: Int
    let name: String
}

func printRepos(of user: String, baseURL: URL) async throws {
    var configuration = CurlTransport.Configuration()
    configuration.policies.totalDeadline = 30                   // the whole call: redirects, retries, waits
    configuration.policies.retries = .standard                  // idempotent requests, up to 3 attempts
    let transport = try CurlTransport(configuration: configuration)   // one libcurl multi handle, one thread
    let client = APIClient(baseURL: baseURL, transport: transport)

    let (repos, head) = try await client.response(to: Request<[Repo]>("users/\(user)/repos"))
    print(repos.map(\.name), head.statusCode, head.httpVersion, head.metrics.total ?? .zero)

    let (data, response) = try await transport.data(for: URLRequest(url: baseURL))   // URLSession's spelling
    print(data.count, (response as? HTTPURLResponse)?.statusCode ?? 0)
    await transport.shutdown()
}
