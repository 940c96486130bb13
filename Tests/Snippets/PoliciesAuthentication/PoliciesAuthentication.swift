#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

struct TokenGrant: Decodable {
    var access_token: String
    var expires_in: TimeInterval
}

/// Client credentials (RFC 6749 §4.4) from the API's token endpoint, over its own transport so
/// that asking for a token never passes through the layer that needs one.
func authenticatedTransport(api: URL, tokenEndpoint: URL, clientID: String, secret: String) -> URLSessionTransport {
    let tokens = APIClient(baseURL: tokenEndpoint, transport: URLSessionTransport())
    let authentication = Authentication(origin: api) { _ in
        let form = "grant_type=client_credentials&client_id=\(clientID)&client_secret=\(secret)"
        let request = Request<TokenGrant>(
            "", method: .post(.data(Data(form.utf8))), headers: ["Content-Type": "application/x-www-form-urlencoded"]
        )
        let grant = try await tokens.send(request)
        return .bearer(grant.access_token, expiration: Date() + grant.expires_in)
    }
    var policies = Policies()
    policies.callLayers = [authentication]
    return URLSessionTransport(configuration: .init(policies: policies))
}
