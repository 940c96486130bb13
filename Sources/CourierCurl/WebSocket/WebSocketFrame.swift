/// One WebSocket frame as the codec sees it: final bit, compression bit, opcode and the
/// payload, unmasked.
///
/// Of the reserved bits only RSV1 is kept, as ``isCompressed``: permessage-deflate (RFC 7692)
/// gives it to a data message's first frame when the message is compressed. RSV2 and RSV3 belong
/// to no extension the client negotiates, so a frame read with one set is a protocol error
/// (``WebSocketFrameDecoder``), and so is RSV1 unless permessage-deflate was agreed. Whether a
/// frame goes masked on the wire is the encoder's business (a client masks every frame), not the
/// frame's.
struct WebSocketFrame: Equatable, Sendable {
    /// Whether this is the last frame of its message; always true for a control frame.
    var isFinal: Bool
    var opcode: WebSocketOpcode
    var payload: [UInt8]
    /// RSV1: the payload of this first frame, and of the continuation frames after it, is the
    /// message compressed with permessage-deflate.
    var isCompressed: Bool

    init(isFinal: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = [], isCompressed: Bool = false) {
        self.isFinal = isFinal
        self.opcode = opcode
        self.payload = payload
        self.isCompressed = isCompressed
    }

    /// RSV1 in a frame's first byte.
    static let compressionBit: UInt8 = 0x40

    /// The most payload a control frame may carry (RFC 6455 §5.5): it fits the 7-bit length.
    static let maximumControlPayloadLength = 125
}
