import NIOCore
import NIOPosix

/// One client connection to a test proxy: runs its handshake, then relays bytes both ways
/// between the client and the server it asked for.
final class ProxyConnectionHandler<Negotiation: ProxyNegotiation>: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private enum State {
        case negotiating
        case connecting(pending: [ByteBuffer])
        case relaying(any Channel)
        case closed
    }

    private var negotiation: Negotiation
    private var state = State.negotiating
    private var received: ByteBuffer?
    private let record: @Sendable (ProxyRecord) -> Void

    init(negotiation: Negotiation, record: @escaping @Sendable (ProxyRecord) -> Void) {
        self.negotiation = negotiation
        self.record = record
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var bytes = unwrapInboundIn(data)
        switch state {
        case .negotiating:
            if var existing = received {
                existing.writeBuffer(&bytes)
                received = existing
            } else {
                received = bytes
            }
            negotiate(context: context)
        case .connecting(var pending):
            pending.append(bytes)
            state = .connecting(pending: pending)
        case .relaying(let server):
            server.writeAndFlush(bytes, promise: nil)
        case .closed:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if case .relaying(let server) = state { server.close(promise: nil) }
        state = .closed
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func negotiate(context: ChannelHandlerContext) {
        while case .negotiating = state, var buffer = received {
            let step = negotiation.consume(&buffer)
            received = buffer
            switch step {
            case .needMore:
                return
            case .reply(let bytes, let close, let seen):
                if let seen { record(seen) }
                let write = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)))
                if close {
                    state = .closed
                    write.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                    return
                }
            case .connect(let address, let port, let replyOnSuccess, let replyOnFailure, let forward, let seen):
                record(seen)
                state = .connecting(pending: [])
                connect(context: context, address: address, port: port, success: replyOnSuccess, failure: replyOnFailure, forward: forward)
                return
            }
        }
    }

    private func connect(
        context: ChannelHandlerContext, address: String, port: Int, success: [UInt8], failure: [UInt8], forward: [UInt8]
    ) {
        let client = context.channel
        ClientBootstrap(group: context.eventLoop)
            .channelInitializer { server in
                server.eventLoop.makeCompletedFuture {
                    try server.pipeline.syncOperations.addHandler(RelayHandler(peer: client))
                }
            }
            .connect(host: address, port: port)
            .assumeIsolated()
            .whenComplete { result in
                switch result {
                case .success(let server):
                    guard case .connecting(let pending) = self.state else {
                        server.close(promise: nil)
                        return
                    }
                    self.state = .relaying(server)
                    if !success.isEmpty {
                        context.writeAndFlush(self.wrapOutboundOut(client.allocator.buffer(bytes: success)), promise: nil)
                    }
                    var first = server.allocator.buffer(bytes: forward)
                    if var rest = self.received { first.writeBuffer(&rest) }
                    self.received = nil
                    for var buffer in pending { first.writeBuffer(&buffer) }
                    if first.readableBytes > 0 { server.writeAndFlush(first, promise: nil) }
                case .failure:
                    self.state = .closed
                    context.writeAndFlush(self.wrapOutboundOut(client.allocator.buffer(bytes: failure)))
                        .assumeIsolated().whenComplete { _ in context.close(promise: nil) }
                }
            }
    }
}

/// The server side of a relay: what the server sends goes to the client; either closing closes both.
final class RelayHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = ByteBuffer

    private let peer: any Channel

    init(peer: any Channel) {
        self.peer = peer
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        peer.writeAndFlush(unwrapInboundIn(data), promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        peer.close(promise: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
