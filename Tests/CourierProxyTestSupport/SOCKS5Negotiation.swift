import NIOCore

/// A SOCKS5 server's side of a connection's handshake (RFC 1928), with username/password
/// authentication (RFC 1929) when a login is required. Only `CONNECT` is served.
struct SOCKS5Negotiation: ProxyNegotiation {
    private enum Phase { case greeting, authentication, request }

    let login: ProxyLogin?
    let hosts: ProxyHostTable
    private var phase = Phase.greeting
    private var user: String?

    init(login: ProxyLogin?, hosts: ProxyHostTable) {
        self.login = login
        self.hosts = hosts
    }

    mutating func consume(_ buffer: inout ByteBuffer) -> ProxyStep {
        let bytes = Array(buffer.readableBytesView)
        switch phase {
        case .greeting:
            guard bytes.count >= 2, bytes.count >= 2 + Int(bytes[1]) else { return .needMore }
            buffer.moveReaderIndex(forwardBy: 2 + Int(bytes[1]))
            guard bytes[0] == 5 else { return .reply([], close: true, record: nil) }
            let methods = bytes[2..<(2 + Int(bytes[1]))]
            if login != nil {
                guard methods.contains(2) else { return .reply([5, 0xFF], close: true, record: nil) }
                phase = .authentication
                return .reply([5, 2], close: false, record: nil)
            }
            guard methods.contains(0) else { return .reply([5, 0xFF], close: true, record: nil) }
            phase = .request
            return .reply([5, 0], close: false, record: nil)
        case .authentication:
            guard bytes.count >= 2 else { return .needMore }
            let userLength = Int(bytes[1])
            guard bytes.count >= 3 + userLength else { return .needMore }
            let passwordLength = Int(bytes[2 + userLength])
            guard bytes.count >= 3 + userLength + passwordLength else { return .needMore }
            buffer.moveReaderIndex(forwardBy: 3 + userLength + passwordLength)
            let given = ProxyLogin(
                user: String(decoding: bytes[2..<(2 + userLength)], as: UTF8.self),
                password: String(decoding: bytes[(3 + userLength)..<(3 + userLength + passwordLength)], as: UTF8.self)
            )
            user = given.user
            guard given == login else {
                let record = ProxyRecord(command: .socksName, host: "", port: 0, target: nil, user: given.user, accepted: false)
                return .reply([1, 1], close: true, record: record)
            }
            phase = .request
            return .reply([1, 0], close: false, record: nil)
        case .request:
            guard bytes.count >= 5 else { return .needMore }
            let addressLength: Int
            switch bytes[3] {
            case 1: addressLength = 4
            case 3: addressLength = 1 + Int(bytes[4])
            case 4: addressLength = 16
            default: return .reply(Self.reply(8), close: true, record: nil)
            }
            let total = 4 + addressLength + 2
            guard bytes.count >= total else { return .needMore }
            buffer.moveReaderIndex(forwardBy: total)
            let address = bytes[4..<(4 + addressLength)]
            let port = Int(bytes[total - 2]) << 8 | Int(bytes[total - 1])
            let command: ProxyRecord.Command = bytes[3] == 3 ? .socksName : .socksAddress
            let host = switch bytes[3] {
            case 1: address.map(String.init).joined(separator: ".")
            case 3: String(decoding: address.dropFirst(), as: UTF8.self)
            default: stride(from: 0, to: 16, by: 2).map { String(Int(address[address.startIndex + $0]) << 8 | Int(address[address.startIndex + $0 + 1]), radix: 16) }.joined(separator: ":")
            }
            var record = ProxyRecord(command: command, host: host, port: port, target: nil, user: user, accepted: false)
            guard bytes[1] == 1 else { return .reply(Self.reply(7), close: true, record: record) }
            guard let resolved = hosts.address(of: host) else { return .reply(Self.reply(4), close: true, record: record) }
            record.accepted = true
            let rest = buffer.readBytes(length: buffer.readableBytes) ?? []
            return .connect(
                address: resolved, port: port, replyOnSuccess: Self.reply(0), replyOnFailure: Self.reply(5), forward: rest, record: record
            )
        }
    }

    /// A reply with status `code` and a bound address of 0.0.0.0:0.
    private static func reply(_ code: UInt8) -> [UInt8] {
        [5, code, 0, 1, 0, 0, 0, 0, 0, 0]
    }
}
