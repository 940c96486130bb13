#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where a checked request goes: its URL, and for an `http+unix` or `https+unix` URL the socket
/// and the `http` or `https` URL sent over it.
package struct RequestTarget: Sendable {
    /// The request's URL as the caller gave it.
    package let url: URL
    /// The Unix domain socket and the URL to send over it; nil for TCP.
    package let unixSocket: (socketPath: String, url: URL)?
}

extension URLRequest {
    /// Checks `self` as both engines check a request before anything is sent, and answers where
    /// it goes; what a check refuses it refuses in the same words on both:
    ///
    /// - a malformed method, header or timeout, or a `Content-Length` that contradicts the body:
    ///   ``RequestError``;
    /// - a GET with a body: `URLError(.dataLengthExceedsMaximum)`, as URLSession refuses it on
    ///   Darwin and Linux, so that switching engines never changes what reaches a server;
    /// - no URL or no host: `URLError(.badURL)`; a scheme other than http and https:
    ///   `URLError(.unsupportedURL)`; an `http+unix` URL on an engine without sockets:
    ///   ``RequestError/unsupportedOption(_:transport:supportedBy:)``;
    /// - a task cancelled already: `URLError(.cancelled)`.
    package func checkedForSending(
        uploading upload: RequestBody?, transport: String, sendsOverUnixSockets: Bool
    ) throws -> RequestTarget {
        try validateForSending(uploading: upload)
        if (httpMethod ?? "GET") == "GET", upload != nil || httpBodyStream != nil || !(httpBody ?? Data()).isEmpty {
            throw URLError(.dataLengthExceedsMaximum, "a GET request cannot carry a body", url: url)
        }
        let target = try Self.target(of: url, transport: transport, sendsOverUnixSockets: sendsOverUnixSockets)
        try Task.checkCancellation(url: target.url)
        return target
    }

    private static func target(of url: URL?, transport: String, sendsOverUnixSockets: Bool) throws -> RequestTarget {
        guard let url else { throw URLError(.badURL, "the request has no URL", url: nil) }
        guard let scheme = url.lowercasedScheme, scheme == "http" || scheme == "https" else {
            guard url.namesUnixSocket else {
                let schemes = sendsOverUnixSockets ? "http, https, http+unix and https+unix" : "http and https"
                throw URLError(.unsupportedURL, "only \(schemes) URLs are sent", url: url)
            }
            guard sendsOverUnixSockets else {
                throw RequestError.unsupportedOption(
                    "send over a Unix domain socket (\(url.scheme ?? "http+unix") URL)", transport: transport,
                    supportedBy: "CurlTransport"
                )
            }
            guard let route = url.unixSocketRoute else {
                throw URLError(.badURL, "the \(url.scheme ?? "http+unix") URL names no socket path as its host", url: url)
            }
            return RequestTarget(url: url, unixSocket: route)
        }
        // Percent-encoded: only emptiness matters here, and decoding costs a microsecond a request.
        guard let host = url.host(percentEncoded: true), !host.isEmpty else {
            throw URLError(.badURL, "the URL has no host", url: url)
        }
        return RequestTarget(url: url, unixSocket: nil)
    }

    /// The idle timeout this request is sent with, clamped to ``maximumTimeoutInterval``:
    ///
    /// - its own `timeoutInterval` when the call chose it (``ChosenTimeoutInterval``, from
    ///   ``Request/timeoutInterval``), whatever the value, 60 s included;
    /// - otherwise its own unless it is 0 or URLRequest's default of 60 s, which cannot be told
    ///   from a 60 s the caller set: FoundationNetworking tells them apart by a flag its setter
    ///   raises, which no other code can read;
    /// - otherwise ``Policies/idleTimeout``, as FoundationNetworking applies the session's
    ///   `timeoutIntervalForRequest` to a request that sets none.
    package func idleTimeout(under policies: Policies) -> TimeInterval {
        let own = timeoutInterval
        guard own > 0, own != URLRequest.defaultTimeoutInterval || ChosenTimeoutInterval.current == own else {
            return URLRequest.clampedTimeout(policies.idleTimeout, fallback: URLRequest.defaultTimeoutInterval)
        }
        return min(own, URLRequest.maximumTimeoutInterval)
    }

    /// What `URLRequest(url:)` sets `timeoutInterval` to.
    package static let defaultTimeoutInterval: TimeInterval = 60
}
