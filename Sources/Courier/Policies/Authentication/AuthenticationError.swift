import Foundation

/// A request that ``Authentication`` could not authenticate: refreshing the credential failed.
///
/// Every request waiting for that refresh fails with this, each naming its own method and URL;
/// the next request starts another refresh. The message never holds a credential.
public struct AuthenticationError: Error, CustomStringConvertible, Sendable {
    /// The request's method.
    public let method: String
    /// The request's URL.
    public let url: URL?
    /// What the refresh threw.
    public let underlying: any Error

    /// `refreshing the credential failed: <error> (GET https://…)`, the URL redacted.
    public var description: String {
        "refreshing the credential failed: \(underlying) (\(method) \(url?.redactedString ?? "no URL"))"
    }
}
