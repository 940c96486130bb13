/// What both ends agreed in the handshake for permessage-deflate: how each compresses, which is
/// what the client's deflater and inflater are set up with.
struct WebSocketDeflateParameters: Equatable, Sendable {
    /// The client compresses each message with an empty window.
    var clientNoContextTakeover: Bool
    /// The server compresses each message with an empty window, so the client keeps none.
    var serverNoContextTakeover: Bool
    /// The client's window, 8...15 bits.
    var clientMaxWindowBits: Int
    /// The server's window, 8...15 bits.
    var serverMaxWindowBits: Int

    init(
        clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false, clientMaxWindowBits: Int = 15,
        serverMaxWindowBits: Int = 15
    ) {
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientMaxWindowBits = clientMaxWindowBits
        self.serverMaxWindowBits = serverMaxWindowBits
    }
}
