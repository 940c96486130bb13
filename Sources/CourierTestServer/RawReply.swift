import NIOCore

/// A response written to the socket byte for byte, for what NIO's HTTP encoder would refuse or
/// repair: a body with no length and no chunking on HTTP/1.1, framing headers that contradict
/// each other, control bytes in a field value, or no HTTP at all.
///
/// Nothing checks or adds to the bytes, not even `Connection: close`; the connection closes once
/// they are written, since after bytes like these the client and server cannot agree on where a
/// next response would start.
struct RawReply: Sendable {
    /// Written first, exactly as given and even for a HEAD request: usually a status line and
    /// fields built by hand, or whatever a server that is not speaking HTTP/1.1 would send.
    var head: ByteBuffer
    /// Written after ``head`` as the socket drains; left out for a HEAD request.
    var body: Reply.Body = .buffer(ByteBuffer())
}

extension RawReply {
    /// `lines` each ended by CRLF, then the empty line that ends a head, then `body`. The lines
    /// are taken as they are, so one may hold a bare CR, a NUL or a second `Content-Length`.
    init(lines: [String], body: Reply.Body = .buffer(ByteBuffer())) {
        self.init(head: ByteBuffer(string: lines.map { $0 + "\r\n" }.joined() + "\r\n"), body: body)
    }

    /// `lines` as in ``init(lines:body:)``, then `text` as the body.
    init(lines: [String], text: String) {
        self.init(lines: lines, body: .buffer(ByteBuffer(string: text)))
    }
}
