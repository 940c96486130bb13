import Foundation

/// A request as a server received it, for comparing what the two transports put on the wire.
///
/// Only a server that records requests can supply one (Courier's test server, an echo
/// endpoint), so ``parityReport(for:urlSession:curl:comparing:)`` does not use it; the parity
/// catalogue does.
public struct ReceivedRequest: Sendable, Equatable {
    /// The method as sent.
    public var method: String
    /// The request target as sent, path and query still percent-encoded, e.g. `/get?q=%C3%A9`.
    public var target: String
    /// The header fields as received.
    public var headers: HeaderFields
    /// The body after transfer decoding.
    public var body: Data

    /// Creates a received request from its parts.
    public init(method: String, target: String, headers: HeaderFields, body: Data) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
    }
}
