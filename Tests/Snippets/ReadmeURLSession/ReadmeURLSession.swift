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
    let transport = URLSessionTransport()                       // no cache, no cookies unless asked
    let networking = compose(bearerToken(token), transport.networking)   // every request carries the token
    let client = APIClient(baseURL: URL(string: "https://api.example.com/")!, networking: networking)

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
