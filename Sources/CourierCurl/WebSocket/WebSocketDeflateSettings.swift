/// What the client asks for when it offers permessage-deflate (RFC 7692 §7): its
/// `Sec-WebSocket-Extensions` offer. The server may decline, and the connection then works
/// uncompressed; what the server accepts is ``WebSocketDeflateParameters``.
///
/// The defaults offer compression in both directions with zlib's largest window (32 KiB) and the
/// window kept from one message to the next, which compresses best: `permessage-deflate;
/// client_max_window_bits`, the bare `client_max_window_bits` telling the server that it may
/// ask for a smaller client window.
struct WebSocketDeflateSettings: Equatable, Sendable {
    /// The client compresses each message with an empty window, and says so
    /// (`client_no_context_takeover`), so that the server need keep no window for it: less memory
    /// for both, worse compression of messages alike.
    var clientNoContextTakeover = false
    /// Asks the server to compress each message with an empty window
    /// (`server_no_context_takeover`), so that the client keeps none between messages; a server
    /// that accepts the offer must agree to it.
    var serverNoContextTakeover = false
    /// The most window bits the client compresses with, 8...15 (256 bytes to 32 KiB); below 15,
    /// offered as `client_max_window_bits=N`. The server may ask for fewer.
    var clientMaxWindowBits = 15
    /// The most window bits the server may compress with, 8...15; below 15, offered as
    /// `server_max_window_bits=N`, which bounds the memory the client's inflater keeps.
    var serverMaxWindowBits = 15

    init(
        clientNoContextTakeover: Bool = false, serverNoContextTakeover: Bool = false, clientMaxWindowBits: Int = 15,
        serverMaxWindowBits: Int = 15
    ) {
        self.clientNoContextTakeover = clientNoContextTakeover
        self.serverNoContextTakeover = serverNoContextTakeover
        self.clientMaxWindowBits = clientMaxWindowBits
        self.serverMaxWindowBits = serverMaxWindowBits
    }

    /// The window sizes RFC 7692 §7.1.2 allows: 2^8 to 2^15 bytes.
    static let windowBitsRange = 8...15

    static let extensionName = "permessage-deflate"

    /// The value of the client's `Sec-WebSocket-Extensions`, such as
    /// `permessage-deflate; server_no_context_takeover; client_max_window_bits`.
    ///
    /// - Throws: ``WebSocketHandshakeError/deflateWindowBitsOutOfRange(parameter:value:)`` when a
    ///   window is outside 8...15; nothing is sent then.
    func offer() throws(WebSocketHandshakeError) -> String {
        guard Self.windowBitsRange.contains(serverMaxWindowBits) else {
            throw .deflateWindowBitsOutOfRange(parameter: "server_max_window_bits", value: serverMaxWindowBits)
        }
        guard Self.windowBitsRange.contains(clientMaxWindowBits) else {
            throw .deflateWindowBitsOutOfRange(parameter: "client_max_window_bits", value: clientMaxWindowBits)
        }
        var parameters: [String] = []
        if serverNoContextTakeover { parameters.append("server_no_context_takeover") }
        if clientNoContextTakeover { parameters.append("client_no_context_takeover") }
        if serverMaxWindowBits < 15 { parameters.append("server_max_window_bits=\(serverMaxWindowBits)") }
        // Always offered, so that a server that wants a smaller client window can have it
        // rather than decline.
        parameters.append(clientMaxWindowBits < 15 ? "client_max_window_bits=\(clientMaxWindowBits)" : "client_max_window_bits")
        return ([Self.extensionName] + parameters).joined(separator: "; ")
    }
}
