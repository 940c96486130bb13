import NIOCore
import NIOHTTP1

/// Serves `/duplex-echo`: answers 200 with a chunked body as soon as the request's head
/// arrives, then writes each piece of the request body back the moment it is read, and ends
/// the response when the request ends. A client that can only hand over a response once its
/// upload is complete never sees the head of this one before it finishes sending; one that
/// holds a conversation (send a piece, read its echo, send the next) can.
///
/// It sits in front of ``HTTPConnectionHandler``, which collects whole requests before a route
/// answers, and passes every other request on untouched. Echoing costs the server no more
/// memory than the socket's buffers: while the echo cannot be written, it stops reading.
final class DuplexEchoHandler: ChannelDuplexHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    static let path = "/duplex-echo"

    private enum State {
        /// Requests for other routes go on to ``HTTPConnectionHandler``.
        case passing
        /// Echoing the body of this request.
        case echoing(HTTPRequestHead)
    }

    private let server: ServerState
    private var state = State.passing
    /// A read was held back while the echo could not be written.
    private var readIsHeld = false

    init(server: ServerState) {
        self.server = server
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch (state, part) {
        case (.passing, .head(let head)) where Self.isDuplexEcho(head):
            state = .echoing(head)
            answer(head, context: context)
        case (.passing, _):
            context.fireChannelRead(data)
        case (.echoing, .body(let bytes)):
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: nil)
        case (.echoing(let head), .end):
            state = .passing
            finish(head, context: context)
        case (.echoing, .head):
            // The pipelining handler delivers one request at a time; a second head cannot come.
            context.close(promise: nil)
        }
    }

    /// Holds reads back while the echo is not being written, so that a client that sends
    /// without reading fills the socket's buffers rather than the server's memory.
    func read(context: ChannelHandlerContext) {
        if case .echoing = state, !context.channel.isWritable {
            readIsHeld = true
            return
        }
        context.read()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, readIsHeld {
            readIsHeld = false
            context.read()
        }
        context.fireChannelWritabilityChanged()
    }

    private static func isDuplexEcho(_ head: HTTPRequestHead) -> Bool {
        head.version.major == 1 && head.version.minor >= 1
            && head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) == path
    }

    private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
            context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))), promise: nil)
        }
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/octet-stream")
        headers.add(name: "Transfer-Encoding", value: "chunked")
        if !head.isKeepAlive || server.closesEveryConnection { headers.add(name: "Connection", value: "close") }
        let responseHead = HTTPResponseHead(version: head.version, status: .ok, headers: headers)
        context.writeAndFlush(wrapOutboundOut(.head(responseHead)), promise: nil)
    }

    private func finish(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        // Recorded without its body, as `/sink` is: the body went back to the client.
        server.record(RecordedRequest(
            method: head.method.rawValue, uri: head.uri, headers: head.headers.map { HTTPHeaderField(name: $0.name, value: $0.value) }
        ))
        let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if !head.isKeepAlive || server.closesEveryConnection {
            written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        }
        if readIsHeld {
            readIsHeld = false
            context.read()
        }
    }
}
