import Foundation

/// The JSON body of `/get`, `/anything`, `/delay/{seconds}`, `/gzip` and `/deflate`: the request
/// as the server understood it, so a client test can check what actually went over the wire.
public struct Echo: Sendable, Codable, Equatable {
    /// The request method. A `HEAD` request is answered as `GET` so that its headers,
    /// `Content-Length` included, match the equivalent `GET`.
    public var method: String
    /// The path, still percent-encoded.
    public var path: String
    /// The raw query after `?`, or `nil` when there was none.
    public var query: String?
    /// The query decoded into values per name (percent-decoded; `+` stays `+`).
    public var args: [String: [String]]
    /// The request headers in received order.
    public var headers: [HTTPHeaderField]
    /// The request body, base64-encoded so binary bodies survive JSON.
    public var body: String
    /// The request body as text when it is valid UTF-8, otherwise `nil`.
    public var bodyText: String?

    /// Creates an echo from its parts.
    public init(
        method: String,
        path: String,
        query: String?,
        args: [String: [String]],
        headers: [HTTPHeaderField],
        body: String,
        bodyText: String?
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.args = args
        self.headers = headers
        self.body = body
        self.bodyText = bodyText
    }

    /// Creates the echo of `request`, reporting `method` in place of the request's own.
    public init(_ request: RecordedRequest, method: String? = nil) {
        self.init(
            method: method ?? request.method,
            path: request.path,
            query: request.query,
            args: request.args,
            headers: request.headers,
            body: request.body.base64EncodedString(),
            bodyText: String(validating: request.body, as: UTF8.self)
        )
    }
}
