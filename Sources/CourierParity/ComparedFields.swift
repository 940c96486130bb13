/// Which groups of ``ParityField`` a comparison looks at.
///
/// ``outcome`` is always compared: a response and a failure never agree.
public struct ComparedFields: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Response versus failure.
    public static let outcome = ComparedFields(rawValue: 1 << 0)
    /// ``ParityField/statusCode``.
    public static let statusCode = ComparedFields(rawValue: 1 << 1)
    /// Every ``ParityField/header(_:)`` except ``IgnoredHeader/all``.
    public static let headers = ComparedFields(rawValue: 1 << 2)
    /// ``ParityField/body``.
    public static let body = ComparedFields(rawValue: 1 << 3)
    /// ``ParityField/finalURL``.
    public static let finalURL = ComparedFields(rawValue: 1 << 4)
    /// ``ParityField/failure``.
    public static let failure = ComparedFields(rawValue: 1 << 5)
    /// ``ParityField/receivedRequest`` and ``ParityField/receivedMethod``.
    public static let receivedMethod = ComparedFields(rawValue: 1 << 6)
    /// ``ParityField/receivedTarget``.
    public static let receivedTarget = ComparedFields(rawValue: 1 << 7)
    /// Every ``ParityField/receivedHeader(_:)`` except ``IgnoredHeader/all``.
    public static let receivedHeaders = ComparedFields(rawValue: 1 << 8)
    /// ``ParityField/receivedBody``.
    public static let receivedBody = ComparedFields(rawValue: 1 << 9)

    /// Everything a client sees: outcome, status, headers, body, final URL, failure.
    public static let response: ComparedFields = [.outcome, .statusCode, .headers, .body, .finalURL, .failure]
    /// Everything the server saw: method, target, headers, body.
    public static let received: ComparedFields = [.receivedMethod, .receivedTarget, .receivedHeaders, .receivedBody]
    /// Both sides.
    public static let all: ComparedFields = [.response, .received]
}
