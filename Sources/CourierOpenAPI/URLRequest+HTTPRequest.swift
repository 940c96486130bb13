#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import HTTPTypes

extension URLRequest {
    /// The request the generated client describes, sent to `baseURL` joined with its path.
    ///
    /// - Throws: `URLError(.badURL)` when the path and the base URL do not make a URL.
    init(_ request: HTTPRequest, baseURL: URL) throws {
        let path = request.path ?? ""
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
            let pathComponents = URLComponents(string: path)
        else {
            throw URLError(.badURL, "cannot join \(path.debugDescription) to the base URL \(baseURL.redactedString)", url: baseURL)
        }
        // Appended rather than resolved, so that a base URL's own path (`/v1`) is kept as the
        // OpenAPI servers' rules require, and its trailing slash does not double.
        var basePath = components.percentEncodedPath
        if basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = basePath + pathComponents.percentEncodedPath
        components.percentEncodedQuery = pathComponents.percentEncodedQuery
        guard let url = components.url else {
            throw URLError(.badURL, "cannot join \(path.debugDescription) to the base URL \(baseURL.redactedString)", url: baseURL)
        }
        self.init(url: url)
        httpMethod = request.method.rawValue
        // A URLRequest holds one value per name: repeated fields are joined as HTTP allows,
        // with "; " for Cookie, whose own syntax separates that way.
        var joined: [(name: HTTPField.Name, value: String)] = []
        // The body's own length frames the request: the engine writes Content-Length from the
        // RequestBody, whose length is the HTTPBody's, or sends it chunked. A copy here would be
        // checked against the URLRequest's empty httpBody and refused.
        for field in request.headerFields where field.name != .contentLength {
            if let index = joined.firstIndex(where: { $0.name == field.name }) {
                let separator = field.name == .cookie ? "; " : ", "
                joined[index].value += separator + field.value
            } else {
                joined.append((field.name, field.value))
            }
        }
        for (name, value) in joined {
            setValue(value, forHTTPHeaderField: name.rawName)
        }
    }
}
