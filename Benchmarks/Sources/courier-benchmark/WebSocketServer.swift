import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
#if canImport(Glibc)
import Glibc
#endif

// The WebSocket rows' server, on NIOWebSocket, in a process of its own as nginx is for the HTTP
// rows, on one event loop thread as nginx has one worker: `courier-benchmark websocket-server`
// binds 127.0.0.1 on a free port, prints `port N` and serves until it is killed.
//
//   /echo                        every text, binary and continuation frame sent back as it came
//   /stream?messages=N&bytes=B   N binary messages of B bytes, written while the connection takes
//                                them (NIO's writability: the server is held back by TCP, never
//                                by its own memory), then a close with 1000
//
// Every /stream message starts with its index and the CLOCK_MONOTONIC nanoseconds at which the
// server wrote it (two big-endian UInt64s), so a client on the same machine can tell how far
// ahead of its reading the server got.

/// Nanoseconds on CLOCK_MONOTONIC, which every process on the machine shares (Swift's clocks do
/// not promise which clock they read).
func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

/// The bytes a /stream message's stamp takes at its start: its index and the server's clock.
let webSocketStampBytes = 16

func serveWebSockets() async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let listener = try await ServerBootstrap(group: group)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .serverChannelOption(.backlog, value: 256)
        .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
        .childChannelInitializer { channel in
            let upgrader = NIOWebSocketServerUpgrader(
                maxFrameSize: 1 << 24,
                shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                upgradePipelineHandler: { channel, head in
                    channel.eventLoop.makeCompletedFuture {
                        if let stream = StreamRequest(uri: head.uri) {
                            try channel.pipeline.syncOperations.addHandler(StreamHandler(stream))
                        } else {
                            try channel.pipeline.syncOperations.addHandler(EchoHandler())
                        }
                    }
                })
            return channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                    withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
            }
        }
        .bind(host: "127.0.0.1", port: 0)
        .get()
    guard let port = listener.localAddress?.port else { throw BenchmarkError.unreadable("the listener's port") }
    // Unbuffered: Benchmarks/run reads the line from a file while this process goes on.
    FileHandle.standardOutput.write(Data("port \(port)\n".utf8))
    try await listener.closeFuture.get()
}

/// What `/stream?messages=N&bytes=B` asks for.
private struct StreamRequest {
    var messages: Int
    var bytes: Int

    init?(uri: String) {
        guard let components = URLComponents(string: uri), components.path == "/stream" else { return nil }
        let items = components.queryItems ?? []
        func value(_ name: String) -> Int? { items.first { $0.name == name }?.value.flatMap(Int.init) }
        guard let messages = value("messages"), let bytes = value("bytes"), messages >= 0, bytes >= webSocketStampBytes
        else { return nil }
        self.messages = messages
        self.bytes = bytes
    }
}

/// Sends every data frame back as it came; answers pings; echoes a close and ends the connection.
private final class EchoHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .binary, .continuation:
            context.write(wrapOutboundOut(WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: frame.unmaskedData)), promise: nil)
        case .ping:
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            answerClose(context, frame)
        default:
            break
        }
    }

    // Written as read, sent once per read: a batch of frames from one read goes out in one flush.
    func channelReadComplete(context: ChannelHandlerContext) {
        context.flush()
    }
}

/// Writes the requested messages while the channel is writable and resumes when it becomes so
/// again, so what it holds is NIO's high-water mark; a close from the client stops it.
private final class StreamHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let request: StreamRequest
    private var written = 0
    /// Set once either side sent a close frame: nothing more is written but the close's answer.
    private var closing = false
    private var sentClose = false
    private var payload: ByteBuffer?

    init(_ request: StreamRequest) {
        self.request = request
    }

    func handlerAdded(context: ChannelHandlerContext) {
        payload = context.channel.allocator.buffer(repeating: 0x2A, count: request.bytes)
        writeWhileWritable(context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { writeWhileWritable(context) }
        context.fireChannelWritabilityChanged()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.opcode == .connectionClose else { return }
        closing = true
        if sentClose {
            // The client's answer to the server's own close.
            context.close(promise: nil)
        } else {
            answerClose(context, frame)
        }
    }

    private func writeWhileWritable(_ context: ChannelHandlerContext) {
        guard !closing, var payload else { return }
        while !closing && written < request.messages && context.channel.isWritable {
            // Counted before the write: a write or a flush can call back into this function
            // (writability changing), which must see this message as written.
            let index = written
            written += 1
            payload.setInteger(UInt64(index), at: 0)
            payload.setInteger(monotonicNanoseconds(), at: 8)
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: payload)), promise: nil)
        }
        if written == request.messages && !sentClose {
            closing = true
            sentClose = true
            var code = context.channel.allocator.buffer(capacity: 2)
            code.write(webSocketErrorCode: .normalClosure)
            context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: code)), promise: nil)
        }
        context.flush()
    }
}

extension ChannelInboundHandler where OutboundOut == WebSocketFrame {
    /// Answers a client's close frame with the same code and ends the connection once it is
    /// written (RFC 6455 §7.1.1: the server closes the TCP connection first).
    fileprivate func answerClose(_ context: ChannelHandlerContext, _ frame: WebSocketFrame) {
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
