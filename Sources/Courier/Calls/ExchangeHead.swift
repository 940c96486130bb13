#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What the policy layers read of a response head, whichever shape it has: Courier's own
/// ``ResponseHead``, which the engines answer with, or Foundation's `URLResponse`, which a
/// user's ``Networking`` answers with. The layers are written once over it, so neither shape
/// is converted into the other on the way through.
package protocol ExchangeHead: SendableMetatype {
    /// The status code; nil when the response is not HTTP.
    var httpStatusCode: Int? { get }
    /// The URL that answered.
    var responseURL: URL? { get }
    /// The value of a field, repeated fields joined with `", "`.
    func fieldValue(_ name: String) -> String?
    /// Every `Set-Cookie` field value, each on its own.
    var setCookieValues: [String] { get }
    /// Why the fields are not valid HTTP (a CR, LF or NUL in a value, conflicting
    /// `Content-Length`s), or nil.
    var fieldProblem: String? { get }
    /// What the engine measured of this one exchange, where the head carries metrics.
    var hopMetrics: ExchangeMetrics? { get }
    /// This head, answering after redirects from hops measured as `hops` (first to last).
    func redirected(after hops: [ExchangeMetrics]) -> Self
    /// This head, answering after the earlier `attempts` were retried.
    func retried(after attempts: [ExchangeAttempt]) -> Self
    /// This head as a user's layer reads it; nil when the response is not HTTP.
    var responseHead: ResponseHead? { get }
    /// The head of this shape a user's layer answered with, or nil when it cannot be one.
    static func answering(_ head: ResponseHead) -> Self?
}

extension ResponseHead: ExchangeHead {
    package var httpStatusCode: Int? { statusCode }
    package var responseURL: URL? { url }
    package func fieldValue(_ name: String) -> String? { headerFields[name] }
    /// From FoundationNetworking's response the values come joined, and are split as
    /// `URLResponse`'s are below.
    package var setCookieValues: [String] {
        guard headerFields.joinsRepeatedFields else { return headerFields.values(for: "Set-Cookie") }
        return headerFields["Set-Cookie"].map(setCookieFieldValues(splittingJoined:)) ?? []
    }

    package var fieldProblem: String? {
        headerFields.problem
    }

    package var hopMetrics: ExchangeMetrics? { metrics }

    package func redirected(after hops: [ExchangeMetrics]) -> ResponseHead {
        var head = self
        head.metrics.redirects = hops
        return head
    }

    package func retried(after attempts: [ExchangeAttempt]) -> ResponseHead {
        var head = self
        head.metrics.attempts = attempts
        return head
    }

    package var responseHead: ResponseHead? { self }

    package static func answering(_ head: ResponseHead) -> ResponseHead? { head }
}

extension URLResponse: ExchangeHead {
    package var httpStatusCode: Int? { (self as? HTTPURLResponse)?.statusCode }
    package var responseURL: URL? { url }
    package func fieldValue(_ name: String) -> String? { (self as? HTTPURLResponse)?.value(forHTTPHeaderField: name) }

    /// FoundationNetworking joins repeated fields with `", "`, which `Expires` dates contain
    /// too, so the values are split where a new `name=` starts.
    package var setCookieValues: [String] {
        fieldValue("Set-Cookie").map(setCookieFieldValues(splittingJoined:)) ?? []
    }

    package var fieldProblem: String? {
        guard let http = self as? HTTPURLResponse else { return nil }
        return ResponseFieldCheck.problem(in: http)
    }

    package var hopMetrics: ExchangeMetrics? { nil }

    package func redirected(after hops: [ExchangeMetrics]) -> Self { self }

    package func retried(after attempts: [ExchangeAttempt]) -> Self { self }

    /// Wraps the response; ``ResponseHead/urlResponse`` hands it back as it was.
    package var responseHead: ResponseHead? { ResponseHead(self) }

    package static func answering(_ head: ResponseHead) -> Self? { head.urlResponse as? Self }
}
