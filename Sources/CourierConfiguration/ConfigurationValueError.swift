/// A configuration value that Courier cannot use: of the wrong type, out of range, or not one of
/// the accepted names.
///
/// Its description says all a person needs to fix it, in the shape of
/// `TransportSelectionError`'s:
///
/// ```
/// courier.redirects.maximum="-1" is not accepted; accepted values: a whole number, 0 or more
/// ```
///
/// An unknown transport name is reported as `TransportSelectionError` instead, so that code
/// already catching it for `COURIER_TRANSPORT` keeps working.
public struct ConfigurationValueError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The full key, scope included, e.g. `courier.curl.verifiesPeer`.
    public var key: String
    /// The value as it was found, or `nil` when the key holds a secret (a proxy URL with
    /// credentials, a header value), so that the error never carries it into a log.
    public var value: String?
    /// What the key accepts, e.g. `a whole number, 0 or more`.
    public var accepted: String

    /// Creates an error for `key`.
    public init(key: String, value: String?, accepted: String) {
        self.key = key
        self.value = value
        self.accepted = accepted
    }

    public var description: String {
        "\(key)=\(value?.debugDescription ?? "<secret>") is not accepted; accepted values: \(accepted)"
    }
}
