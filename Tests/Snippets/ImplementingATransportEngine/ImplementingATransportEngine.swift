#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// An engine of its own: it answers from fixtures, a path to a status, fields and a body, and
/// Courier's policies (redirects, cookies, the cache, retries, limits, validation) run over it.
struct FixtureTransport: HTTPTransport {
    struct Fixture: Sendable {
        var status = 200
        var fields: HeaderFields = [:]
        var body = Data()
    }

    let policies: Policies
    let engine: TransportEngine

    init(_ fixtures: [String: Fixture], policies: Policies = Policies()) {
        self.policies = policies
        engine = TransportEngine { request, _ in
            try request.validateForSending()                   // CR, LF or NUL reach no engine
            guard let url = request.url, let fixture = fixtures[url.path] else {
                throw URLError(.cannotConnectToHost)
            }
            let chunks = AsyncStream<Data> { continuation in   // the body as it would arrive
                var rest = fixture.body[...]
                while !rest.isEmpty {
                    continuation.yield(Data(rest.prefix(4096)))
                    rest = rest.dropFirst(4096)
                }
                continuation.finish()
            }
            let head = ResponseHead(statusCode: fixture.status, headerFields: fixture.fields, url: url)
            return (ResponseBody(chunks), head)
        }
        .applying(policies)                                    // once, for every call
    }

    func shutdown() async {}
}

struct Profile: Decodable, Sendable {
    let name: String
}

/// A typed call through the fixtures: the redirect layer follows the 301, the client decodes.
func profile(over fixtures: [String: FixtureTransport.Fixture], policies: Policies = Policies()) async throws(APIError) -> Profile {
    let transport = FixtureTransport(fixtures, policies: policies)
    let client = APIClient(baseURL: URL(string: "https://fixtures.invalid/")!, transport: transport)
    return try await client.send(Request<Profile>("old-profile"))
}
