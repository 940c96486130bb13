extension WebSocketDeflateSettings {
    /// What the server agreed to, read from the parameters of the permessage-deflate it accepted,
    /// or why the client fails the connection (RFC 7692 §5, §7.1): a parameter RFC 7692 does not
    /// define for a response, one given twice, one with a value it cannot have, or an agreement
    /// the client did not offer.
    ///
    /// - `server_no_context_takeover`: required when the client asked for it; a server may
    ///   also add it unasked.
    /// - `client_no_context_takeover`: the server may add it; the client honours its own offer
    ///   of it either way.
    /// - `server_max_window_bits`: required, at most the offered value, when the client offered
    ///   one; otherwise any window the server chooses.
    /// - `client_max_window_bits`: at most what the client offered (15 for the bare
    ///   parameter); the client compresses with what it offered when the server names none.
    func agreement(with parameters: [WebSocketExtension.Parameter]) throws(WebSocketHandshakeError) -> WebSocketDeflateParameters {
        var seen: Set<String> = []
        var serverNoContextTakeover = false
        var clientNoContextTakeover = false
        var serverBits: Int?
        var clientBits: Int?
        for parameter in parameters {
            let name = parameter.name.lowercased()
            guard seen.insert(name).inserted else { throw .deflateParameterRepeated(parameter.name) }
            switch name {
            case "server_no_context_takeover", "client_no_context_takeover":
                guard parameter.value == nil else { throw .deflateParameterInvalid(name: parameter.name, value: parameter.value) }
                if name == "server_no_context_takeover" { serverNoContextTakeover = true } else { clientNoContextTakeover = true }
            case "server_max_window_bits", "client_max_window_bits":
                guard let bits = parameter.value.flatMap(Self.windowBits) else {
                    throw .deflateParameterInvalid(name: parameter.name, value: parameter.value)
                }
                if name == "server_max_window_bits" { serverBits = bits } else { clientBits = bits }
            default:
                throw .deflateParameterUnknown(parameter.name)
            }
        }
        if self.serverNoContextTakeover, !serverNoContextTakeover { throw .deflateServerNoContextTakeoverMissing }
        if serverMaxWindowBits < 15, serverBits == nil { throw .deflateServerMaxWindowBitsMissing(offered: serverMaxWindowBits) }
        if let serverBits, serverBits > serverMaxWindowBits {
            throw .deflateWindowBitsOverOffer(parameter: "server_max_window_bits", offered: serverMaxWindowBits, received: serverBits)
        }
        if let clientBits, clientBits > clientMaxWindowBits {
            throw .deflateWindowBitsOverOffer(parameter: "client_max_window_bits", offered: clientMaxWindowBits, received: clientBits)
        }
        return WebSocketDeflateParameters(
            clientNoContextTakeover: clientNoContextTakeover || self.clientNoContextTakeover,
            serverNoContextTakeover: serverNoContextTakeover,
            clientMaxWindowBits: clientBits ?? clientMaxWindowBits,
            serverMaxWindowBits: serverBits ?? 15)
    }

    /// A window size as RFC 7692 §7.1.2 writes it: a decimal from 8 to 15 without leading zeros.
    private static func windowBits(_ value: String) -> Int? {
        guard let bits = Int(value), windowBitsRange.contains(bits), String(bits) == value else { return nil }
        return bits
    }
}
