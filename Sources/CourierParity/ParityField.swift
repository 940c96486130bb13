/// One field of an exchange that parity compares.
public enum ParityField: Hashable, Sendable, CustomStringConvertible {
    /// Whether the exchange produced a response or a failure.
    case outcome
    /// The response's status code.
    case statusCode
    /// One response header, by lowercased name.
    case header(String)
    /// The response body bytes.
    case body
    /// The final URL, after redirects.
    case finalURL
    /// The failure: `URLError` code, ``/Courier/RequestError`` or other error.
    case failure
    /// Whether the server received a request at all.
    case receivedRequest
    /// The method the server received.
    case receivedMethod
    /// The request target (path and query) the server received.
    case receivedTarget
    /// One header the server received, by lowercased name.
    case receivedHeader(String)
    /// The body the server received.
    case receivedBody

    /// The group of fields this one belongs to, as a comparison selects them.
    public var group: ComparedFields {
        switch self {
        case .outcome: .outcome
        case .statusCode: .statusCode
        case .header: .headers
        case .body: .body
        case .finalURL: .finalURL
        case .failure: .failure
        case .receivedRequest, .receivedMethod: .receivedMethod
        case .receivedTarget: .receivedTarget
        case .receivedHeader: .receivedHeaders
        case .receivedBody: .receivedBody
        }
    }

    public var description: String {
        switch self {
        case .outcome: "outcome"
        case .statusCode: "status code"
        case .header(let name): "header \(name)"
        case .body: "body"
        case .finalURL: "final URL"
        case .failure: "failure"
        case .receivedRequest: "request received"
        case .receivedMethod: "received method"
        case .receivedTarget: "received target"
        case .receivedHeader(let name): "received header \(name)"
        case .receivedBody: "received body"
        }
    }
}
