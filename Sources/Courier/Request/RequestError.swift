import Foundation

/// Why a request could not be built or was refused before anything was sent.
///
/// Courier never crashes on a bad URL, method or header: building a `URLRequest` from a
/// ``Request`` throws this error, and both transports throw it for a `URLRequest` that would put
/// malformed bytes on the wire.
///
/// The cases are a closed set, one per part of a request (URL, base URL, scheme, method,
/// header, body, timeout) and one for what the chosen engine cannot do, so an exhaustive
/// `switch` stays valid: from 1.0 Courier adds none before the next major version, and a new
/// rule about a part says why in that case's payload, as `reason` does for headers.
public enum RequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text could not be parsed as a URL, or the URL built from it has no host.
    case invalidURL(String)
    /// The request names a relative path and no base URL was given to resolve it against.
    case missingBaseURL(path: String)
    /// The URL's scheme is not `http` or `https`, nor `http+unix` or `https+unix` (see
    /// `URL.unixSocket(_:path:secure:)`).
    case unsupportedScheme(String, url: String)
    /// A custom method name is empty or is not an RFC 9110 token.
    case invalidMethod(String)
    /// A header name is not an RFC 9110 token, or a header value holds CR, LF, NUL or another
    /// control character (a request-splitting attempt or a bug upstream).
    case invalidHeader(name: String, reason: String)
    /// The body could not be encoded; `description` is the encoder's message.
    case bodyEncodingFailed(description: String)
    /// `URLRequest.timeoutInterval` is negative or not a number; the value as text (`"-1.0"`,
    /// `"nan"`), so that two such errors compare equal, as a NaN payload would not.
    case invalidTimeout(String)
    /// The request or the transport's configuration asks for something this engine cannot do
    /// (a proxy, a Unix socket, HTTP/2 prior knowledge, a client certificate…); it is refused
    /// before anything is sent rather than silently ignored. `option` names what was asked for,
    /// `transport` the engine that cannot honour it and `supportedBy` the one that can.
    case unsupportedOption(String, transport: String, supportedBy: String)

    public var description: String {
        switch self {
        case .invalidURL(let text):
            return "invalid URL: \(redactedURLText(text))"
        case .missingBaseURL(let path):
            return "relative path \"\(redactedURLText(path))\" needs a base URL"
        case .unsupportedScheme(let scheme, let url):
            return "unsupported URL scheme \"\(scheme)\" in \(redactedURLText(url)); only http, https, http+unix and https+unix are sent"
        case .invalidMethod(let method):
            return "invalid HTTP method \(method.debugDescription): a method must be an RFC 9110 token"
        case .invalidHeader(let name, let reason):
            return "invalid header \(name.debugDescription): \(reason)"
        case .bodyEncodingFailed(let description):
            return "request body could not be encoded: \(description)"
        case .invalidTimeout(let interval):
            return "invalid timeoutInterval \(interval): it must be a number of seconds, 0 or more"
        case .unsupportedOption(let option, let transport, let supportedBy):
            return "\(transport) cannot \(redactingURLs(in: option)); nothing was sent (\(supportedBy) can)"
        }
    }
}
