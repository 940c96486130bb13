import Foundation
import NIOCore
import NIOHTTP1

/// Serves one connection: collects each request, records it, asks the route table what to do
/// and carries that out, writing large bodies only as fast as the socket drains.
///
/// It sits behind NIO's `configureHTTPServerPipeline`, whose pipelining handler delivers one
/// request at a time and whose error handler already answers unparsable requests with 400.
/// Responses go out through NIO's encoder, except a ``RawReply``, whose bytes are written past
/// it so that nothing normalises them.
final class HTTPConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    /// Largest request body accepted; larger ones get 413.
    static let maximumRequestBodySize = 64 * 1024 * 1024

    /// What the response needs to know about the request it answers.
    private struct Exchange {
        var version: HTTPVersion
        var keepAlive: Bool
        var isHead: Bool

        /// HTTP/1.1 and later; HTTP/1.0 has no chunking, no default keep-alive and no 1xx
        /// responses.
        var isHTTP11OrLater: Bool {
            version.major > 1 || (version.major == 1 && version.minor >= 1)
        }
    }

    /// A response whose body is still being written.
    private struct Transfer {
        /// `nil` for a HEAD request: the response ends with its head.
        var body: Reply.Body?
        var offset = 0
        var output: Output
        var ending: Ending
        /// The pause after each chunk; `nil` to write as fast as the socket drains.
        var chunkInterval: TimeAmount?
    }

    /// Where a response's bytes go.
    private enum Output {
        /// As `HTTPServerResponsePart`s, through NIO's pipelining handler, header validator and
        /// encoder.
        case encoder
        /// As they are, from the response encoder's place in the pipeline: that is the handler
        /// next to the socket, so the bytes pass none of the handlers that would check, reframe
        /// or refuse them.
        case socket(ChannelHandlerContext)
    }

    /// What follows the last byte of the body.
    private enum Ending {
        /// `.end`, then the next request, or a close once it is written.
        case complete(closesConnection: Bool)
        /// No `.end`: the connection closes once everything written has reached the socket.
        case close
        /// No `.end` and no close: the client waits for bytes that never come.
        case stall
    }

    private enum State {
        case idle
        case receiving(HTTPRequestHead, body: ByteBuffer)
        /// Receiving a body for `/sink`: counted and dropped as it arrives, whatever its size.
        case sinking(HTTPRequestHead, count: Int)
        /// A 413 went out before the body finished; the rest is read and dropped so the client
        /// sees the response rather than a reset, then the connection closes.
        case discardingBody(responseWritten: EventLoopFuture<Void>)
        case delaying(Scheduled<Void>)
        case sending(Transfer)
        /// Between two chunks of a body that trickles, until `next` resumes it.
        case pausing(Transfer, next: Scheduled<Void>)
        /// Holding the connection open without answering (`/never`, or after a stalled body).
        case silent
        case closing
    }

    private let server: ServerState
    private var state = State.idle

    init(server: ServerState) {
        self.server = server
    }

    // MARK: Receiving

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard case .idle = state else { return }
            receive(head, context: context)
        case .body(var part):
            append(&part, context: context)
        case .end:
            switch state {
            case .receiving(let head, let body):
                complete(head, body: body, context: context)
            case .sinking(let head, let count):
                complete(head, body: context.channel.allocator.buffer(capacity: 0), discardedBodyBytes: count, context: context)
            case .discardingBody(let written):
                state = .closing
                written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            case .idle, .delaying, .sending, .pausing, .silent, .closing:
                break
            }
        }
    }

    /// Whether `uri` is `/sink`, whose body is counted rather than kept.
    private static func isSink(_ uri: String) -> Bool {
        uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/sink"
    }

    private func receive(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        if Self.isSink(head.uri) {
            state = .sinking(head, count: 0)
        } else if let length = head.headers.first(name: "Content-Length").flatMap(Int.init),
            length > Self.maximumRequestBodySize
        {
            reject(head, context: context)
            return
        } else {
            state = .receiving(head, body: context.channel.allocator.buffer(capacity: 0))
        }
        // Clients that ask first (curl for large uploads) would otherwise wait a second or more.
        if head.headers[canonicalForm: "Expect"].contains(where: { $0.lowercased() == "100-continue" }) {
            context.writeAndFlush(
                wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .continue))),
                promise: nil
            )
        }
    }

    private func append(_ part: inout ByteBuffer, context: ChannelHandlerContext) {
        if case .sinking(let head, let count) = state {
            state = .sinking(head, count: count + part.readableBytes)
            return
        }
        // Anything else is the body of a rejected request, or input arriving while closing.
        guard case .receiving(let head, var body) = state else { return }
        guard body.readableBytes + part.readableBytes <= Self.maximumRequestBodySize else {
            reject(head, context: context)
            return
        }
        // Drop the state's reference first so the append grows the buffer in place instead of
        // copying the whole body for every part.
        state = .closing
        body.writeBuffer(&part)
        state = .receiving(head, body: body)
    }

    private func reject(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
        var reply = Reply.error(.payloadTooLarge, "request body exceeds \(Self.maximumRequestBodySize) bytes")
        reply.headers.replaceOrAdd(name: "Content-Length", value: "\(reply.body.count)")
        reply.headers.replaceOrAdd(name: "Connection", value: "close")
        let responseHead = HTTPResponseHead(version: head.version, status: reply.status, headers: reply.headers)
        context.write(wrapOutboundOut(.head(responseHead)), promise: nil)
        if let body = reply.body.chunk(at: 0, allocator: context.channel.allocator), head.method != .HEAD {
            context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        }
        let written = context.channel.eventLoop.makePromise(of: Void.self)
        // The state changes before the write: ending the response can deliver the next read.
        state = .discardingBody(responseWritten: written.futureResult)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
    }

    private func complete(
        _ head: HTTPRequestHead, body: ByteBuffer, discardedBodyBytes: Int = 0, context: ChannelHandlerContext
    ) {
        let request = RecordedRequest(
            method: head.method.rawValue,
            uri: head.uri,
            headers: head.headers.map { HTTPHeaderField(name: $0.name, value: $0.value) },
            body: body.withUnsafeReadableBytes { Data($0) }
        )
        // Recorded before answering, so a client holding the response can rely on `lastRequest`.
        server.record(request)
        let exchange = Exchange(version: head.version, keepAlive: head.isKeepAlive, isHead: head.method == .HEAD)
        let action = TestServer.action(
            for: request, baseURL: Self.baseURL(of: context.channel), discardedBodyBytes: discardedBodyBytes,
            visit: { [server] key in server.visit(key) }
        )
        switch action {
        case .reply(let reply):
            start(reply, for: exchange, context: context)
        case .delayed(let delay, let reply):
            let task = context.eventLoop.assumeIsolated().scheduleTask(in: delay) { [self] in
                guard case .delaying = self.state else { return }
                self.start(reply, for: exchange, context: context)
            }
            state = .delaying(task)
        case .raw(let raw):
            start(raw, for: exchange, context: context)
        case .closeConnection:
            state = .closing
            context.close(promise: nil)
        case .neverAnswer:
            state = .silent
        }
    }

    // MARK: Sending

    private func start(_ reply: Reply, for exchange: Exchange, context: ChannelHandlerContext) {
        var headers = reply.headers
        var closesConnection = !exchange.keepAlive || server.closesEveryConnection
        switch reply.framing {
        case .contentLength:
            headers.replaceOrAdd(name: "Content-Length", value: "\(reply.body.count)")
        case .chunked where exchange.isHTTP11OrLater:
            headers.replaceOrAdd(name: "Transfer-Encoding", value: "chunked")
        case .chunked:
            // HTTP/1.0 has no chunking: the body ends when the connection does.
            closesConnection = true
        case .truncated(let declaredLength):
            headers.replaceOrAdd(name: "Content-Length", value: "\(declaredLength)")
            closesConnection = true
        case .stalled(let declaredLength):
            headers.replaceOrAdd(name: "Content-Length", value: "\(declaredLength)")
        }
        if closesConnection {
            headers.replaceOrAdd(name: "Connection", value: "close")
        } else if !exchange.isHTTP11OrLater {
            headers.replaceOrAdd(name: "Connection", value: "keep-alive")
        }
        let ending: Ending
        switch reply.framing {
        case .truncated where !exchange.isHead: ending = .close
        case .stalled where !exchange.isHead: ending = .stall
        default: ending = .complete(closesConnection: closesConnection)
        }
        if exchange.isHTTP11OrLater {
            for interim in reply.interim {
                let head = HTTPResponseHead(version: exchange.version, status: interim.status, headers: interim.headers)
                context.write(wrapOutboundOut(.head(head)), promise: nil)
            }
        }
        let head = HTTPResponseHead(version: exchange.version, status: reply.status, headers: headers)
        let body = exchange.isHead ? nil : reply.body
        state = .sending(Transfer(body: body, output: .encoder, ending: ending, chunkInterval: reply.chunkInterval))
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        continueSending(context: context)
    }

    private func start(_ raw: RawReply, for exchange: Exchange, context: ChannelHandlerContext) {
        guard let socket = try? context.pipeline.syncOperations.context(handlerType: HTTPResponseEncoder.self)
        else {
            // Not reachable with the pipeline `TestServer` builds; closing is the honest answer.
            state = .closing
            context.close(promise: nil)
            return
        }
        state = .sending(Transfer(body: exchange.isHead ? nil : raw.body, output: .socket(socket), ending: .close))
        socket.write(NIOAny(raw.head), promise: nil)
        continueSending(context: context)
    }

    /// Writes body chunks until the body is done, the channel stops being writable
    /// (`channelWritabilityChanged` resumes it) or a body that trickles pauses (a timer does).
    private func continueSending(context: ChannelHandlerContext) {
        while case .sending(var transfer) = state {
            guard let chunk = transfer.body?.chunk(at: transfer.offset, allocator: context.channel.allocator) else {
                finish(transfer, context: context)
                return
            }
            transfer.offset += chunk.readableBytes
            state = .sending(transfer)
            write(chunk, to: transfer.output, context: context, promise: nil)
            // No pause after the last chunk: it would only hold back the next request.
            if let interval = transfer.chunkInterval, let body = transfer.body, transfer.offset < body.count {
                pause(transfer, for: interval, context: context)
                return
            }
            if !context.channel.isWritable {
                context.flush()
                return
            }
        }
    }

    private func pause(_ transfer: Transfer, for interval: TimeAmount, context: ChannelHandlerContext) {
        let next = context.eventLoop.assumeIsolated().scheduleTask(in: interval) { [self] in
            guard case .pausing(let transfer, _) = self.state else { return }
            self.state = .sending(transfer)
            self.continueSending(context: context)
        }
        state = .pausing(transfer, next: next)
        // After the state says pausing: a flush can make the channel writable again at once,
        // and `channelWritabilityChanged` would otherwise send the next chunk from the state
        // still saying sending, then have it overwritten here, so that chunk went out twice.
        context.flush()
    }

    private func finish(_ transfer: Transfer, context: ChannelHandlerContext) {
        server.bodyFinished()
        switch transfer.ending {
        case .stall:
            state = .silent
            context.flush()
        case .close:
            // The empty write only provides a future for when everything before it has reached
            // the socket; closing sooner would drop what is still queued.
            state = .closing
            let written = context.eventLoop.makePromise(of: Void.self)
            write(ByteBuffer(), to: transfer.output, context: context, promise: written)
            context.flush()
            written.futureResult.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
        case .complete(let closesConnection):
            // Set before writing `.end`, which can synchronously deliver a pipelined request.
            state = closesConnection ? .closing : .idle
            let written = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            if closesConnection {
                written.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            }
        }
    }

    private func write(
        _ bytes: ByteBuffer, to output: Output, context: ChannelHandlerContext, promise: EventLoopPromise<Void>?
    ) {
        switch output {
        case .encoder:
            context.write(wrapOutboundOut(.body(.byteBuffer(bytes))), promise: promise)
        case .socket(let socket):
            socket.write(NIOAny(bytes), promise: promise)
        }
    }

    // MARK: Channel events

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            continueSending(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        switch state {
        case .delaying(let task), .pausing(_, let task):
            task.cancel()
        default:
            break
        }
        state = .closing
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Parse errors were already answered with 400 upstream; any error ends the connection.
        state = .closing
        context.close(promise: nil)
    }

    /// `http://address:port` of the listener, as the client reached it.
    private static func baseURL(of channel: any Channel) -> String {
        guard let address = channel.localAddress, let ip = address.ipAddress, let port = address.port else {
            return ""
        }
        let host = ip.contains(":") ? "[\(ip)]" : ip
        return "http://\(host):\(port)"
    }
}
