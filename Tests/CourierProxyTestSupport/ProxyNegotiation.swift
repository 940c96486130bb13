import NIOCore

/// What a proxy's handshake decided after the bytes it was given.
enum ProxyStep {
    /// The handshake needs more bytes.
    case needMore
    /// Send `bytes`; then close when `close`, or go on reading the handshake.
    case reply([UInt8], close: Bool, record: ProxyRecord?)
    /// Connect to `address` (already resolved) and `port`; on success send `replyOnSuccess`,
    /// then `forward` to the server and relay both ways; on failure send `replyOnFailure` and close.
    case connect(address: String, port: Int, replyOnSuccess: [UInt8], replyOnFailure: [UInt8], forward: [UInt8], record: ProxyRecord)
}

/// The handshake of one client connection: a value that consumes bytes and returns what to do.
protocol ProxyNegotiation {
    mutating func consume(_ buffer: inout ByteBuffer) -> ProxyStep
}

/// How a test proxy finds a host: its table first (names such as `api.test`), then IP
/// literals as they are and `localhost` as 127.0.0.1. Never DNS.
struct ProxyHostTable: Sendable {
    var names: [String: String]

    func address(of host: String) -> String? {
        if let address = names[host.lowercased()] { return address }
        if host.lowercased() == "localhost" { return "127.0.0.1" }
        let isIPv4 = host.split(separator: ".").count == 4 && host.allSatisfy { $0.isNumber || $0 == "." }
        return isIPv4 || host.contains(":") ? host : nil
    }
}
