#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import HTTPTypes

extension HTTPResponse {
    /// The status and header fields of `response`.
    ///
    /// Foundation keeps one value per field name, so fields the server repeated arrive as one
    /// field with the values joined by ", ", and names in the case the engine reported them.
    ///
    /// - Throws: `URLError(.badServerResponse)` when `response` is not an HTTP response.
    init(_ response: URLResponse, for request: URLRequest) throws {
        guard let response = response as? HTTPURLResponse, (0...999).contains(response.statusCode) else {
            throw URLError(.badServerResponse, "the response to \(request.url?.redactedString ?? "the request") is not HTTP", url: request.url)
        }
        self.init(status: .init(code: response.statusCode))
        for (name, value) in response.allHeaderFields {
            guard let name = (name as? String).flatMap({ HTTPField.Name($0) }), let value = value as? String else {
                continue
            }
            headerFields.append(HTTPField(name: name, value: value))
        }
    }
}
