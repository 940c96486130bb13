/// A WebSocket close status code (RFC 6455 §7.4), with the names `URLSessionWebSocketTask`
/// gives the registered ones. Codes 3000–4999 are an application's own: `CloseCode(rawValue: 4001)`.
extension WebSocket {
    /// A close status code; see the extension's overview.
    public struct CloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code as it goes on the wire.
        public let rawValue: UInt16

        /// The code `rawValue`, registered or an application's own.
        public init(rawValue: UInt16) {
            self.rawValue = rawValue
        }

        /// 1000: the purpose of the connection was fulfilled.
        public static let normalClosure = Self(rawValue: 1000)
        /// 1001: the endpoint is going away (a server shutting down, a page left).
        public static let goingAway = Self(rawValue: 1001)
        /// 1002: the peer broke the protocol.
        public static let protocolError = Self(rawValue: 1002)
        /// 1003: the peer sent a kind of message it cannot accept.
        public static let unsupportedData = Self(rawValue: 1003)
        /// 1005: the close frame carried no code. Reported, never sent.
        public static let noStatusReceived = Self(rawValue: 1005)
        /// 1006: the connection ended without a close frame. Reported, never sent.
        public static let abnormalClosure = Self(rawValue: 1006)
        /// 1007: a text message or close reason was not UTF-8.
        public static let invalidFramePayloadData = Self(rawValue: 1007)
        /// 1008: a message broke the peer's policy.
        public static let policyViolation = Self(rawValue: 1008)
        /// 1009: a message was larger than the peer accepts.
        public static let messageTooBig = Self(rawValue: 1009)
        /// 1010: the server did not agree to an extension the client requires.
        public static let mandatoryExtensionMissing = Self(rawValue: 1010)
        /// 1011: the server met a condition it could not handle.
        public static let internalServerError = Self(rawValue: 1011)
        /// 1012: the server is restarting.
        public static let serviceRestart = Self(rawValue: 1012)
        /// 1013: the server is overloaded; try again later.
        public static let tryAgainLater = Self(rawValue: 1013)
        /// 1014: a gateway got an invalid answer from upstream.
        public static let badGateway = Self(rawValue: 1014)
        /// 1015: the TLS handshake failed. Reported, never sent.
        public static let tlsHandshakeFailure = Self(rawValue: 1015)

        /// Whether a close frame may carry this code (RFC 6455 §7.4.1): the registered codes
        /// but 1004–1006 and 1015, and 3000–4999.
        package var isAllowedOnTheWire: Bool {
            switch rawValue {
            case 1000...1003, 1007...1014, 3000...4999: true
            default: false
            }
        }

        /// Whether the code ends a connection as intended rather than in failure: 1000, 1001, or
        /// a close frame without a code.
        public var isNormal: Bool {
            self == .normalClosure || self == .goingAway || self == .noStatusReceived
        }

        /// The code with its name: "1008 (policy violation)".
        public var description: String {
            let name: String? =
                switch rawValue {
                case 1000: "normal closure"
                case 1001: "going away"
                case 1002: "protocol error"
                case 1003: "unsupported data"
                case 1005: "no status received"
                case 1006: "abnormal closure"
                case 1007: "invalid frame payload data"
                case 1008: "policy violation"
                case 1009: "message too big"
                case 1010: "mandatory extension missing"
                case 1011: "internal server error"
                case 1012: "service restart"
                case 1013: "try again later"
                case 1014: "bad gateway"
                case 1015: "TLS handshake failure"
                default: nil
                }
            return name.map { "\(rawValue) (\($0))" } ?? "\(rawValue)"
        }
    }
}
