/// One header line, kept exactly as it travelled: the name's case and the value's text untouched.
///
/// Headers are an ordered list of these rather than a dictionary so tests can assert on
/// order, duplicates and the spelling a client chose.
public struct HTTPHeaderField: Sendable, Hashable, Codable {
    /// The field name as received, for example `Content-Type` or `x-trace-id`.
    public var name: String
    /// The field value as received, without the leading and trailing whitespace HTTP strips.
    public var value: String

    /// Creates a header field.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
