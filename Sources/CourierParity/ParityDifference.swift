/// A field on which the two transports disagree, with each one's value as text.
public struct ParityDifference: Sendable, Hashable, CustomStringConvertible {
    /// The field that differs.
    public var field: ParityField
    /// URLSession's value.
    public var urlSession: String
    /// CurlTransport's value.
    public var curl: String

    /// Creates a difference.
    public init(field: ParityField, urlSession: String, curl: String) {
        self.field = field
        self.urlSession = urlSession
        self.curl = curl
    }

    public var description: String {
        "\(field): URLSession \(urlSession.debugDescription), curl \(curl.debugDescription)"
    }
}
