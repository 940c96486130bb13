/// The status code of a close frame (RFC 6455 §7.4): why an endpoint closes.
///
/// A struct over the number rather than an enum, because the registry grows and the range
/// 3000–4999 belongs to libraries and applications: any value can be held, and
/// ``isAllowedOnTheWire`` says whether it may appear in a close frame.
struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    let rawValue: UInt16

    init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    init(_ rawValue: UInt16) {
        self.rawValue = rawValue
    }

    static let normalClosure = Self(1000)
    static let goingAway = Self(1001)
    static let protocolError = Self(1002)
    static let unsupportedData = Self(1003)
    /// Never on the wire: what the user is told when a close frame carried no code.
    static let noStatusReceived = Self(1005)
    /// Never on the wire: what the user is told when the connection ended without a close frame.
    static let abnormalClosure = Self(1006)
    static let invalidFramePayloadData = Self(1007)
    static let policyViolation = Self(1008)
    static let messageTooBig = Self(1009)
    static let mandatoryExtension = Self(1010)
    static let internalError = Self(1011)
    /// Registered with IANA after RFC 6455, as are the two below.
    static let serviceRestart = Self(1012)
    static let tryAgainLater = Self(1013)
    static let badGateway = Self(1014)
    /// Never on the wire: what the user is told when the TLS handshake failed.
    static let tlsHandshakeFailure = Self(1015)

    /// Whether a close frame may carry this code (RFC 6455 §7.4): the codes defined in
    /// 1000–2999 (those of RFC 6455 and of the IANA registry, 1012–1014) except 1004 (reserved)
    /// and 1005, 1006 and 1015 (which only ever report a close to the user), and all of
    /// 3000–4999. A close frame from the server with any other code fails the connection (1002).
    var isAllowedOnTheWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }

    var description: String {
        let name: String? =
            switch self {
            case .normalClosure: "normal closure"
            case .goingAway: "going away"
            case .protocolError: "protocol error"
            case .unsupportedData: "unsupported data"
            case .noStatusReceived: "no status received"
            case .abnormalClosure: "abnormal closure"
            case .invalidFramePayloadData: "invalid frame payload data"
            case .policyViolation: "policy violation"
            case .messageTooBig: "message too big"
            case .mandatoryExtension: "mandatory extension"
            case .internalError: "internal error"
            case .serviceRestart: "service restart"
            case .tryAgainLater: "try again later"
            case .badGateway: "bad gateway"
            case .tlsHandshakeFailure: "TLS handshake failure"
            default: nil
            }
        return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
    }
}
