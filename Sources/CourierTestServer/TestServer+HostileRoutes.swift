import NIOCore

// Routes whose replies break HTTP/1.1's rules on purpose, written as raw bytes because NIO's
// encoder would refuse or repair them: framing that contradicts itself, control bytes in a
// field value, and replies with no valid status line. Each closes the connection after it.
extension TestServer {
    /// The text every hostile body carries; with the two lengths below, a client that trusts
    /// the first `Content-Length` reads `hello`, one that trusts the last reads all of it.
    static let hostileBody = "hello world"

    // MARK: Content-Length

    /// RFC 9112 §6.3: differing lengths are an unrecoverable error, and a smuggling vector.
    static func conflictingContentLength(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 5", "Content-Length: 11"]))
    }

    /// RFC 9112 §6.3: identical repeated lengths a recipient may accept as one.
    static func repeatedContentLength(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 11", "Content-Length: 11"]))
    }

    /// RFC 9110 §8.6: a list of identical lengths, which a recipient may accept as one.
    static func listedContentLength(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 11, 11"]))
    }

    // MARK: Field values

    /// RFC 9112 §2.2 and RFC 9110 §5.5: a recipient must reject the message or replace the CR
    /// with a space; a parser that ends lines at a lone CR sees `after` as a line of its own.
    static func bareCRInHeaderValue(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["X-Bare-CR: before\rafter", "Content-Length: 11"]))
    }

    /// RFC 9112 §2.2 lets a recipient end a line at a lone LF, which leaves `after` as a field
    /// line with no colon; read as part of the value, RFC 9110 §5.5 says reject or replace it.
    static func bareLFInHeaderValue(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["X-Bare-LF: before\nafter", "Content-Length: 11"]))
    }

    /// RFC 9110 §5.5: reject the message or replace the NUL with a space; C code that keeps
    /// the value as a string silently cuts it at the NUL.
    static func nulInHeaderValue(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["X-NUL: before\0after", "Content-Length: 11"]))
    }

    // MARK: Status line

    /// What a client gets when it sends HTTP to an SSH port.
    static func sshBanner(_ request: RouteRequest) -> RouteAction {
        .raw(RawReply(head: ByteBuffer(string: "SSH-2.0-OpenSSH_9.2\r\n")))
    }

    /// An HTTP/0.9 reply: the body alone, ended by the close.
    static func http09(_ request: RouteRequest) -> RouteAction {
        .raw(RawReply(head: ByteBuffer(string: hostileBody)))
    }

    static func nonNumericStatus(_ request: RouteRequest) -> RouteAction {
        .raw(RawReply(lines: ["HTTP/1.1 abc OK", "Content-Length: 0", "Connection: close"]))
    }

    /// RFC 9112 §4: the HTTP-name is case-sensitive, so `Http/1.1` is not an HTTP version.
    static func lowercaseHTTPName(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 11"], statusLine: "Http/1.1 200 OK"))
    }

    /// RFC 9112 §4 wants a space after the code even when the reason phrase is empty, but
    /// servers leave both out and most clients accept it.
    static func noReasonPhrase(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 11"], statusLine: "HTTP/1.1 200"))
    }

    /// The form RFC 9112 §4 allows for an empty reason phrase: the space, then nothing.
    static func emptyReasonPhrase(_ request: RouteRequest) -> RouteAction {
        .raw(hostileReply(["Content-Length: 11"], statusLine: "HTTP/1.1 200 "))
    }

    /// `statusLine`, then `Content-Type`, `fields`, `Connection: close`, and ``hostileBody``
    /// as the body.
    private static func hostileReply(_ fields: [String], statusLine: String = "HTTP/1.1 200 OK") -> RawReply {
        let lines = [statusLine, "Content-Type: text/plain"] + fields + ["Connection: close"]
        return RawReply(lines: lines, text: hostileBody)
    }
}
