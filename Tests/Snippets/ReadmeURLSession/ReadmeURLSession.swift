import Courier
import Foundation

struct Repo: Decodable, Sendable {
    let id: Int
    let name: String
}

extension Request where Response == [Repo] {
    static func repos(of user: String) -> Self {
        Request("users/\(user)/repos", method: .get([URLQueryItem(name: "per_page", value: "100")]))
    }
}

func printRepos(of user: String, token: String) async {
    let baseURL = URL(string: "https://api.example.com/")!
    var policies = Policies()                                   // no cache, no cookies unless asked
    policies.callLayers = [Authentication(origin: baseURL, credential: .bearer(token))]   // the token, to this origin only
    let transport = URLSessionTransport(configuration: .init(policies: policies))
    let client = APIClient(baseURL: baseURL, transport: transport)

    do throws(APIError) {                                       // error is an APIError, in closures too
        let repos = try await client.send(.repos(of: user))     // [Repo], inferred from the request
        print(repos.map(\.name))
    } catch where error.kind == .notFound {
        print("No user named \(user)")
    } catch {
        print(error)                                            // method, URL, status and cause
    }
    await transport.shutdown()
}
