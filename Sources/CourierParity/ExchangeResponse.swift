#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The parts of an HTTP response that parity compares.
public struct ExchangeResponse: Sendable, Equatable {
    /// The final response's status code.
    public var statusCode: Int
    /// Its headers.
    public var headers: HeaderFields
    /// The body as delivered, after content decoding.
    public var body: Data
    /// The URL of the final response, after any redirects.
    public var url: URL?

    /// Creates a response from its parts.
    public init(statusCode: Int, headers: HeaderFields, body: Data, url: URL?) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The normalised form of what a transport returned.
    public init(body: Data, response: HTTPURLResponse) {
        self.init(statusCode: response.statusCode, headers: HeaderFields(response), body: body, url: response.url)
    }
}
