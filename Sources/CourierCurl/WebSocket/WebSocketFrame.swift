/// One WebSocket frame as the codec sees it: final bit, opcode and the payload, unmasked.
///
/// The reserved bits are not kept: no extension is negotiated, so a frame read with one set is a
/// protocol error (``WebSocketFrameDecoder``) and a frame written has them clear. An extension such
/// as permessage-deflate would add its bit here. Whether a frame goes masked on the wire is the
/// encoder's business (a client masks every frame), not the frame's.
struct WebSocketFrame: Equatable, Sendable {
    /// Whether this is the last frame of its message; always true for a control frame.
    var isFinal: Bool
    var opcode: WebSocketOpcode
    var payload: [UInt8]

    init(isFinal: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = []) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
    }

    /// The most payload a control frame may carry (RFC 6455 §5.5): it fits the 7-bit length.
    static let maximumControlPayloadLength = 125
}
