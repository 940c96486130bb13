import Courier
import Foundation

/// The opening handshake of RFC 6455 §4 as values: the header fields of the client's upgrade
/// request, and the check of the server's `101 Switching Protocols`. The engine sends the one
/// and reads the other; neither does I/O.
enum WebSocketHandshake {
    /// The GUID the server appends to the key before hashing it (RFC 6455 §1.3).
    static let acceptGUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// A fresh `Sec-WebSocket-Key`: 16 random bytes in base64 (§4.1). It need not be secret,
    /// only new for each connection, so that a cache or an intermediary cannot replay an
    /// earlier answer; `SystemRandomNumberGenerator` makes it so.
    static func makeKey(using generator: inout some RandomNumberGenerator) -> String {
        var bytes: [UInt8] = []
        for _ in 0..<2 {
            let random: UInt64 = generator.next()
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: random >> UInt64(56 - 8 * $0)) }
        }
        return Data(bytes).base64EncodedString()
    }

    /// The `Sec-WebSocket-Accept` a server that read `key` answers: base64 of the SHA-1 of the
    /// key followed by the GUID.
    static func acceptValue(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + acceptGUID).utf8))).base64EncodedString()
    }

    /// The fields the upgrade request carries besides those of any GET (libcurl writes `Host`):
    /// `Upgrade`, `Connection`, the key, the version (13), the subprotocols the client offers,
    /// most preferred first, when it offers any, and its permessage-deflate offer when it makes
    /// one.
    static func requestHeaderFields(
        key: String, protocols: [String] = [], deflate: WebSocketDeflateSettings? = nil
    ) throws(WebSocketHandshakeError) -> [HeaderField] {
        var seen: Set<String> = []
        for name in protocols {
            guard isToken(name) else { throw .protocolNotAToken(name) }
            guard seen.insert(name).inserted else { throw .protocolRepeated(name) }
        }
        var fields = [
            HeaderField(name: "Upgrade", value: "websocket"),
            HeaderField(name: "Connection", value: "Upgrade"),
            HeaderField(name: "Sec-WebSocket-Key", value: key),
            HeaderField(name: "Sec-WebSocket-Version", value: "13"),
        ]
        if !protocols.isEmpty {
            fields.append(HeaderField(name: "Sec-WebSocket-Protocol", value: protocols.joined(separator: ", ")))
        }
        if let deflate {
            fields.append(HeaderField(name: "Sec-WebSocket-Extensions", value: try deflate.offer()))
        }
        return fields
    }

    /// What the server's 101 agreed to.
    struct Agreement: Equatable, Sendable {
        /// The subprotocol the server chose, nil when it chose none.
        var subprotocol: String?
        /// The compression the server accepted, nil when the client offered none or the server
        /// declined it: then messages go uncompressed.
        var deflate: WebSocketDeflateParameters?
    }

    /// Checks the server's answer to the upgrade request as §4.1 requires of a client, and
    /// returns what it agreed to.
    ///
    /// The answer must be a 101 whose `Upgrade` is `websocket` and whose `Connection` holds
    /// `Upgrade` (both compared without regard to case), whose `Sec-WebSocket-Accept` is
    /// ``acceptValue(forKey:)``, that names no extension but permessage-deflate when the client
    /// offered it (`deflate`), and then as RFC 7692 allows, and that names a subprotocol only
    /// if the client offered it.
    static func checkResponse(
        statusCode: Int, headerFields: HeaderFields, key: String, protocols: [String] = [],
        deflate: WebSocketDeflateSettings? = nil
    ) throws(WebSocketHandshakeError) -> Agreement {
        guard statusCode == 101 else { throw .notSwitchingProtocols(statusCode: statusCode) }
        let upgrade = headerFields["Upgrade"]
        guard let upgrade, tokens(upgrade).contains(where: { $0.lowercased() == "websocket" }) else {
            throw .upgradeNotWebSocket(upgrade)
        }
        let connection = headerFields["Connection"]
        guard let connection, tokens(connection).contains(where: { $0.lowercased() == "upgrade" }) else {
            throw .connectionNotUpgrade(connection)
        }
        let accept = headerFields["Sec-WebSocket-Accept"].map(trimmed)
        let expected = acceptValue(forKey: key)
        guard accept == expected else { throw .acceptMismatch(expected: expected, received: accept) }
        let agreed = try agreedExtensions(headerFields["Sec-WebSocket-Extensions"], offered: deflate)
        guard let chosen = headerFields["Sec-WebSocket-Protocol"].map(trimmed), !chosen.isEmpty else {
            return Agreement(subprotocol: nil, deflate: agreed)
        }
        guard protocols.contains(chosen) else { throw .protocolNotOffered(chosen) }
        return Agreement(subprotocol: chosen, deflate: agreed)
    }

    /// The permessage-deflate the server's `Sec-WebSocket-Extensions` accepts (nil when it
    /// names none), or why the client fails the connection: an extension the client did not
    /// offer, permessage-deflate twice, or parameters RFC 7692 does not allow.
    private static func agreedExtensions(
        _ value: String?, offered deflate: WebSocketDeflateSettings?
    ) throws(WebSocketHandshakeError) -> WebSocketDeflateParameters? {
        guard let value, !tokens(value).isEmpty else { return nil }
        guard let deflate else { throw .extensionNotOffered(trimmed(value)) }
        guard let extensions = WebSocketExtension.list(from: value) else { throw .extensionsMalformed(trimmed(value)) }
        var agreed: WebSocketDeflateParameters?
        for element in extensions {
            guard element.name.lowercased() == WebSocketDeflateSettings.extensionName else {
                throw .extensionNotOffered(element.text)
            }
            guard agreed == nil else { throw .extensionRepeated(element.name) }
            agreed = try deflate.agreement(with: element.parameters)
        }
        return agreed
    }

    /// The comma-separated elements of a field value, trimmed, empty ones dropped.
    private static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { trimmed(String($0)) }.filter { !$0.isEmpty }
    }

    private static func trimmed(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces)
    }

    /// `token` of RFC 9110 §5.6.2, which a subprotocol name must be (RFC 6455 §4.1).
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }
}

/// Why the opening handshake failed, before any frame: the client was asked to offer something
/// it cannot, or the server's answer is not a WebSocket one.
enum WebSocketHandshakeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A subprotocol the client was asked to offer is not an HTTP token.
    case protocolNotAToken(String)
    /// A subprotocol the client was asked to offer twice.
    case protocolRepeated(String)
    /// The server answered with another status than 101.
    case notSwitchingProtocols(statusCode: Int)
    /// The server's `Upgrade` (its value, or nil when absent) does not name `websocket`.
    case upgradeNotWebSocket(String?)
    /// The server's `Connection` (its value, or nil when absent) does not hold `Upgrade`.
    case connectionNotUpgrade(String?)
    /// The server's `Sec-WebSocket-Accept` is not what the key makes.
    case acceptMismatch(expected: String, received: String?)
    /// The server named an extension, which the client did not offer.
    case extensionNotOffered(String)
    /// The server chose a subprotocol the client did not offer.
    case protocolNotOffered(String)

    // MARK: permessage-deflate (RFC 7692)

    /// A window the client was asked to offer is outside 8...15 bits; nothing was sent.
    case deflateWindowBitsOutOfRange(parameter: String, value: Int)
    /// The server's `Sec-WebSocket-Extensions` does not follow RFC 6455's grammar.
    case extensionsMalformed(String)
    /// The server accepted the extension (its name as written) more than once.
    case extensionRepeated(String)
    /// The server's permessage-deflate has a parameter RFC 7692 does not define for a response.
    case deflateParameterUnknown(String)
    /// The server's permessage-deflate has a parameter twice.
    case deflateParameterRepeated(String)
    /// A parameter of the server's permessage-deflate has a value it cannot have (nil when it
    /// has none and needs one).
    case deflateParameterInvalid(name: String, value: String?)
    /// The client asked for `server_no_context_takeover` and the server accepted without it.
    case deflateServerNoContextTakeoverMissing
    /// The client offered `server_max_window_bits` (this value) and the server accepted
    /// without it.
    case deflateServerMaxWindowBitsMissing(offered: Int)
    /// The server's `server_max_window_bits` or `client_max_window_bits` is over the offer.
    case deflateWindowBitsOverOffer(parameter: String, offered: Int, received: Int)

    var description: String {
        switch self {
        case .protocolNotAToken(let name):
            "the subprotocol \"\(name)\" is not an HTTP token"
        case .protocolRepeated(let name):
            "the subprotocol \"\(name)\" is offered twice"
        case .notSwitchingProtocols(let statusCode):
            "the server answered the WebSocket upgrade with \(statusCode), not 101"
        case .upgradeNotWebSocket(let value):
            "the server's 101 has \(value.map { "Upgrade: \($0)" } ?? "no Upgrade field"), not websocket"
        case .connectionNotUpgrade(let value):
            "the server's 101 has \(value.map { "Connection: \($0)" } ?? "no Connection field"), not Upgrade"
        case .acceptMismatch(let expected, let received):
            "the server's Sec-WebSocket-Accept is \(received.map { "\"\($0)\"" } ?? "missing"), not \"\(expected)\""
        case .extensionNotOffered(let value):
            "the server named the extension \"\(value)\", which the client did not offer"
        case .protocolNotOffered(let name):
            "the server chose the subprotocol \"\(name)\", which the client did not offer"
        case .deflateWindowBitsOutOfRange(let parameter, let value):
            "permessage-deflate's \(parameter) cannot be \(value): a window is 8 to 15 bits"
        case .extensionsMalformed(let value):
            "the server's Sec-WebSocket-Extensions \"\(value)\" is not a list of extensions"
        case .extensionRepeated(let name):
            "the server accepted the extension \(name) more than once"
        case .deflateParameterUnknown(let name):
            "the server's permessage-deflate has the parameter \"\(name)\", which RFC 7692 does not define for a response"
        case .deflateParameterRepeated(let name):
            "the server's permessage-deflate has the parameter \(name) more than once"
        case .deflateParameterInvalid(let name, let value?):
            "the server's permessage-deflate has \(name)=\"\(value)\", a value \(name) cannot have"
        case .deflateParameterInvalid(let name, nil):
            "the server's permessage-deflate has \(name) without the value it needs"
        case .deflateServerNoContextTakeoverMissing:
            "the server accepted permessage-deflate without server_no_context_takeover, which the client asked for"
        case .deflateServerMaxWindowBitsMissing(let offered):
            "the server accepted permessage-deflate without server_max_window_bits, which the client limited to \(offered)"
        case .deflateWindowBitsOverOffer(let parameter, let offered, let received):
            "the server's permessage-deflate has \(parameter)=\(received), over the \(offered) the client offered"
        }
    }
}
