#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A request written as data, turned into a `URLRequest` once the servers' ports are known.
struct RequestSpec: Sendable {
    /// Where the request goes.
    enum Location: Sendable {
        /// A path and query on one of the servers.
        case on(ServerRole, String)
        /// A path and query on a port that refuses connections.
        case refusingPort(String)
        /// A path and query on the HTTPS server no transport trusts.
        case untrustedTLS(String)
        /// URL text used as is (after `{main}`/`{other}` substitution).
        case literal(String)
    }

    var method: String
    var location: Location
    /// Added with `addValue`, so a repeated name is sent as URLSession sends it: one line, values
    /// joined with `,`.
    var headers: [(name: String, value: String)] = []
    var body: Data?
    /// Send ``body`` as `httpBodyStream` (a fresh stream per request built) instead of `httpBody`.
    var bodyIsStream = false
    /// Send the file at this path as `httpBodyStream`, for a stream that fails.
    var bodyStreamFile: String?
    var timeout: TimeInterval?

    /// The request, or nil when the location's text is not a URL `URL(string:)` accepts.
    ///
    /// There is no case for a request without a URL: FoundationNetworking traps on one
    /// (`NSURLRequest.mutableCopy` unwraps the URL), which would end the test process.
    func urlRequest(on servers: ParityServers) -> URLRequest? {
        let text = switch location {
        case .on(let role, let pathAndQuery):
            servers.server(role).baseURL.absoluteString + servers.substitutingBaseURLs(in: pathAndQuery)
        case .refusingPort(let pathAndQuery):
            servers.refusing.baseURL.absoluteString + pathAndQuery
        case .untrustedTLS(let pathAndQuery):
            servers.untrustedTLS.url(pathAndQuery).absoluteString
        case .literal(let text):
            servers.substitutingBaseURLs(in: text)
        }
        guard let url = URL(string: text) else { return nil }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for header in headers {
            request.addValue(header.value, forHTTPHeaderField: header.name)
        }
        if let bodyStreamFile {
            request.httpBodyStream = InputStream(fileAtPath: bodyStreamFile)
        } else if bodyIsStream {
            request.httpBodyStream = body.map { InputStream(data: $0) }
        } else {
            request.httpBody = body
        }
        if let timeout { request.timeoutInterval = timeout }
        return request
    }
}

extension RequestSpec {
    static func get(_ pathAndQuery: String, headers: [(name: String, value: String)] = []) -> RequestSpec {
        RequestSpec(method: "GET", location: .on(.main, pathAndQuery), headers: headers)
    }

    static func send(
        _ method: String, _ pathAndQuery: String, body: Data? = nil,
        headers: [(name: String, value: String)] = []
    ) -> RequestSpec {
        RequestSpec(method: method, location: .on(.main, pathAndQuery), headers: headers, body: body)
    }

    /// A request whose body is an `InputStream` (`httpBodyStream`) over `body`.
    static func streaming(
        _ method: String, _ pathAndQuery: String, body: Data,
        headers: [(name: String, value: String)] = []
    ) -> RequestSpec {
        RequestSpec(method: method, location: .on(.main, pathAndQuery), headers: headers, body: body, bodyIsStream: true)
    }
}
