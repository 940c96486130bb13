import Foundation
import NIOCore

/// An HTTP proxy's side of a connection's first request: a `CONNECT host:port` opens a tunnel,
/// an absolute-form request (`GET http://host/path`) is forwarded in origin form with
/// `Connection: close`, so each forwarded request has a connection of its own.
struct HTTPProxyNegotiation: ProxyNegotiation {
    let login: ProxyLogin?
    let hosts: ProxyHostTable

    mutating func consume(_ buffer: inout ByteBuffer) -> ProxyStep {
        let bytes = buffer.readableBytesView
        guard let end = bytes.firstRange(of: Array("\r\n\r\n".utf8)) else {
            return bytes.count > 64 * 1024 ? Self.status(431, "Request Header Fields Too Large", record: nil) : .needMore
        }
        let head = String(decoding: bytes[bytes.startIndex..<end.lowerBound], as: UTF8.self)
        buffer.moveReaderIndex(forwardBy: end.upperBound - bytes.startIndex)
        let rest = buffer.readBytes(length: buffer.readableBytes) ?? []
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard requestLine.count == 3 else { return Self.status(400, "Bad Request", record: nil) }
        let (method, target) = (requestLine[0], requestLine[1])
        let user = Self.basicUser(in: lines)

        if method == "CONNECT" {
            let parts = target.split(separator: ":")
            guard parts.count >= 2, let port = Int(parts[parts.count - 1]) else { return Self.status(400, "Bad Request", record: nil) }
            let host = parts.dropLast().joined(separator: ":").trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
            var record = ProxyRecord(command: .connect, host: host, port: port, target: nil, user: user?.user, accepted: false)
            if let refusal = authorize(user, record: record) { return refusal }
            guard let address = hosts.address(of: host) else { return Self.status(502, "Bad Gateway", record: record) }
            record.accepted = true
            return .connect(
                address: address, port: port, replyOnSuccess: Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8),
                replyOnFailure: Self.statusBytes(502, "Bad Gateway"), forward: rest, record: record
            )
        }
        guard let url = URLComponents(string: target), url.scheme?.lowercased() == "http", let host = url.host else {
            return Self.status(400, "Bad Request", record: nil)
        }
        let port = url.port ?? 80
        var record = ProxyRecord(command: .forward, host: host, port: port, target: target, user: user?.user, accepted: false)
        if let refusal = authorize(user, record: record) { return refusal }
        guard let address = hosts.address(of: host) else { return Self.status(502, "Bad Gateway", record: record) }
        record.accepted = true
        let dropped: Set<String> = ["proxy-authorization", "proxy-connection", "connection", "keep-alive"]
        var forwarded = ["\(method) \(url.percentEncodedPath.isEmpty ? "/" : url.percentEncodedPath)\(url.percentEncodedQuery.map { "?" + $0 } ?? "") \(requestLine[2])"]
        forwarded += lines.filter { line in
            !dropped.contains(line.prefix(while: { $0 != ":" }).lowercased())
        }
        forwarded.append("Connection: close")
        let headBytes = Array((forwarded.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        return .connect(
            address: address, port: port, replyOnSuccess: [], replyOnFailure: Self.statusBytes(502, "Bad Gateway"),
            forward: headBytes + rest, record: record
        )
    }

    /// nil when `user` may pass; otherwise a 407 that closes the connection.
    private func authorize(_ user: ProxyLogin?, record: ProxyRecord) -> ProxyStep? {
        guard let login, user != login else { return nil }
        let reply = "HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"courier-test\"\r\n"
            + "Content-Length: 0\r\nConnection: close\r\n\r\n"
        return .reply(Array(reply.utf8), close: true, record: record)
    }

    /// The user and password of a `Proxy-Authorization: Basic …` field.
    private static func basicUser(in lines: [String]) -> ProxyLogin? {
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), line[..<colon].lowercased() == "proxy-authorization" else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard value.lowercased().hasPrefix("basic "), let data = Data(base64Encoded: String(value.dropFirst(6))) else { return nil }
            let text = String(decoding: data, as: UTF8.self)
            guard let separator = text.firstIndex(of: ":") else { return nil }
            return ProxyLogin(user: String(text[..<separator]), password: String(text[text.index(after: separator)...]))
        }
        return nil
    }

    private static func statusBytes(_ code: Int, _ reason: String) -> [UInt8] {
        Array("HTTP/1.1 \(code) \(reason)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    }

    private static func status(_ code: Int, _ reason: String, record: ProxyRecord?) -> ProxyStep {
        .reply(statusBytes(code, reason), close: true, record: record)
    }
}
