import Courier
import Foundation

struct User: Decodable, Sendable {
    let id: Int
    let name: String
}

struct UserService: Sendable {
    let client: APIClient

    init(baseURL: URL, networking: @escaping Networking = URLSessionTransport().networking) {
        client = APIClient(baseURL: baseURL, networking: networking)
    }

    func user(id: Int) async throws(APIError) -> User {
        try await client.send(Request("users/\(id)"))
    }
}
