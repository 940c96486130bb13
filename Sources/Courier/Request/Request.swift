import Foundation

/// A description of one HTTP call whose successful response decodes to `Response`.
///
/// `Response` is a phantom type: no value of it is stored, but it ties each request to what it
/// returns, so ``APIClient/send(_:)-(Request<Response>)`` needs no type annotation and cannot
/// decode into the wrong type:
///
/// ```swift
/// extension Request where Response == [Repo] {
///     static func repos(of user: String) -> Self {
///         Request("users/\(user)/repos", method: .get([URLQueryItem(name: "per_page", value: "100")]))
///     }
/// }
/// let repos = try await client.send(.repos(of: "apple"))   // [Repo]
/// ```
///
/// Use `Request<Void>` when the body is irrelevant (204, `HEAD`) and `Request<Data>` for raw bytes.
public struct Request<Response>: Sendable {
    /// Where the request goes.
    public var endpoint: Endpoint
    /// The method and the query items or body that belong to it.
    public var method: HTTPMethod
    /// Header fields sent with the request, validated when it is built.
    public var headers: [String: String]
    /// This request's idle timeout in seconds, in place of the transport's
    /// ``Policies/idleTimeout``, whatever its value, 60 s included; `nil` (the default) for the
    /// policy's. Honoured exactly on both engines: the client sends it beside the `URLRequest`
    /// it builds, which cannot tell a chosen 60 s from its default (see ``Policies/idleTimeout``).
    public var timeoutInterval: TimeInterval?

    /// Creates a request for a path relative to the client's base URL, or an absolute URL string.
    public init(
        _ path: String,
        method: HTTPMethod = .get(),
        headers: [String: String] = [:],
        timeoutInterval: TimeInterval? = nil
    ) {
        self.init(endpoint: Endpoint(path), method: method, headers: headers, timeoutInterval: timeoutInterval)
    }

    /// Creates a request for an absolute URL.
    public init(
        url: URL,
        method: HTTPMethod = .get(),
        headers: [String: String] = [:],
        timeoutInterval: TimeInterval? = nil
    ) {
        self.init(endpoint: Endpoint(url: url), method: method, headers: headers, timeoutInterval: timeoutInterval)
    }

    /// Creates a request for an endpoint.
    public init(
        endpoint: Endpoint,
        method: HTTPMethod = .get(),
        headers: [String: String] = [:],
        timeoutInterval: TimeInterval? = nil
    ) {
        self.endpoint = endpoint
        self.method = method
        self.headers = headers
        self.timeoutInterval = timeoutInterval
    }
}
