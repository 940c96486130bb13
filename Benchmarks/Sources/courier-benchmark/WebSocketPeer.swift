import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

// The WebSocket rows' peer: a client written directly on NIOWebSocket's codec, as a SwiftNIO
// program would write one (NIOWebSocketClientUpgrader, then a handler), with nothing of Courier.
// Each socket's echo loop runs in its handler on the channel's event loop: the echo's last frame
// sends the next message. On NIO's singleton group, one loop per core, as AsyncHTTPClient's rows.

/// Round trips counted by one socket's loop.
struct EchoTally: Sendable {
    var roundTrips = 0
    var failures = 0
    var bytes = 0
    /// Each round trip's time, send to the echo's last frame, in nanoseconds.
    var latencies: [UInt64] = []

    mutating func add(_ other: EchoTally) {
        roundTrips += other.roundTrips
        failures += other.failures
        bytes += other.bytes
        latencies += other.latencies
    }
}

/// One open WebSocket of the peer client: its channel and its echo loop.
struct NIOWebSocketPeer: Sendable {
    private let channel: any Channel
    private let loop: NIOLoopBound<EchoLoopHandler>

    /// Connects to `ws://host:port/path` and completes the opening handshake.
    static func connect(host: String, port: Int, path: String, messageBytes: Int) async throws -> NIOWebSocketPeer {
        let group = MultiThreadedEventLoopGroup.singleton
        let eventLoop = group.next()
        let upgraded = eventLoop.makePromise(of: NIOLoopBound<EchoLoopHandler>.self)
        let channel = try await ClientBootstrap(group: eventLoop)
            .channelOption(.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                let upgrader = NIOWebSocketClientUpgrader(
                    maxFrameSize: 1 << 24,
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            let handler = EchoLoopHandler(payload: channel.allocator.buffer(repeating: 0x2A, count: messageBytes))
                            try channel.pipeline.syncOperations.addHandler(handler)
                            upgraded.succeed(NIOLoopBound(handler, eventLoop: channel.eventLoop))
                        }
                    })
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers(
                        withClientUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                    try channel.pipeline.syncOperations.addHandler(UpgradeRequestHandler(host: "\(host):\(port)", path: path))
                }
            }
            .connect(host: host, port: port)
            .get()
        // A refused upgrade closes the channel without calling the upgrade handler.
        channel.closeFuture.whenComplete { _ in upgraded.fail(ChannelError.ioOnClosedChannel) }
        let loop = try await upgraded.futureResult.get()
        return NIOWebSocketPeer(channel: channel, loop: loop)
    }

    /// Echo round trips, one after another, until `deadline` (CLOCK_MONOTONIC nanoseconds) or
    /// `limit` round trips.
    func echo(until deadline: UInt64, limit: Int = .max) async throws -> EchoTally {
        let loop = loop
        return try await channel.eventLoop.flatSubmit { loop.value.run(until: deadline, limit: limit) }.get()
    }

    /// Sends a close frame and waits until the server ended the connection.
    func close() async {
        let loop = loop
        try? await channel.eventLoop.submit { loop.value.sendClose() }.get()
        try? await channel.closeFuture.get()
    }
}

/// Sends the upgrade request once connected (the upgrader adds its fields), then leaves the
/// pipeline, which carries WebSocket frames from then on.
private final class UpgradeRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let host: String
    private let path: String

    init(host: String, path: String) {
        self.host = host
        self.path = path
    }

    func channelActive(context: ChannelHandlerContext) {
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": host, "Content-Length": "0"])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        context.fireChannelActive()
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// One socket's echo loop, run on its channel's event loop: sends the payload, and on the last
/// frame of the echo counts the round trip and sends again until the run's end.
final class EchoLoopHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private struct Run {
        var deadline: UInt64
        var limit: Int
        var promise: EventLoopPromise<EchoTally>
        var tally = EchoTally()
        var sentAt: UInt64 = 0
    }

    private let payload: ByteBuffer
    private var context: ChannelHandlerContext?
    private var run: Run?
    private var receivedBytes = 0

    init(payload: ByteBuffer) {
        self.payload = payload
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func run(until deadline: UInt64, limit: Int) -> EventLoopFuture<EchoTally> {
        guard let context else { return MultiThreadedEventLoopGroup.singleton.next().makeFailedFuture(ChannelError.ioOnClosedChannel) }
        let promise = context.eventLoop.makePromise(of: EchoTally.self)
        var run = Run(deadline: deadline, limit: limit, promise: promise)
        run.tally.latencies.reserveCapacity(min(limit, 1 << 16))
        self.run = run
        send(context)
        return promise.futureResult
    }

    func sendClose() {
        guard let context else { return }
        var code = context.channel.allocator.buffer(capacity: 2)
        code.write(webSocketErrorCode: .normalClosure)
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: code)), promise: nil)
    }

    private func send(_ context: ChannelHandlerContext) {
        run?.sentAt = monotonicNanoseconds()
        // A client masks every frame (RFC 6455 §5.3); the encoder applies the key.
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, maskKey: .random(), data: payload)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .binary, .continuation:
            receivedBytes += frame.length
            if frame.fin { echoed(context) }
        case .ping:
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, maskKey: .random(), data: frame.data)), promise: nil)
        case .connectionClose:
            // The server's answer to ours: it ends the connection.
            break
        default:
            break
        }
    }

    private func echoed(_ context: ChannelHandlerContext) {
        let size = receivedBytes
        receivedBytes = 0
        guard var run else { return }
        let now = monotonicNanoseconds()
        run.tally.roundTrips += 1
        run.tally.latencies.append(now - run.sentAt)
        if size == payload.readableBytes { run.tally.bytes += size } else { run.tally.failures += 1 }
        if run.tally.roundTrips < run.limit && now < run.deadline {
            self.run = run
            send(context)
        } else {
            self.run = nil
            run.promise.succeed(run.tally)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        run?.promise.fail(ChannelError.ioOnClosedChannel)
        run = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        run?.promise.fail(error)
        run = nil
        context.close(promise: nil)
    }
}
