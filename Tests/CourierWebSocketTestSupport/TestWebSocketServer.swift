import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A real WebSocket server on 127.0.0.1 for tests, built on NIOWebSocket, so the client meets
/// an implementation other than its own. Each ``Mode`` is one behaviour; the close frames the
/// server receives come out of ``receivedCloses`` in order.
///
/// ```swift
/// let server = try await TestWebSocketServer.start(.echo)
/// // connect to server.url, then:
/// try await server.shutdown()
/// ```
package final class TestWebSocketServer: Sendable {
    package enum Mode: Sendable {
        /// Echoes text and binary messages, answers pings, and echoes a close frame, code and
        /// reason, then ends the connection.
        case echo
        /// Sends a close frame with this code and reason right after the handshake; ends the
        /// connection when the client's echo comes.
        case closeFirst(code: UInt16, reason: String)
        /// Sends a masked text frame right after the handshake, which only a client may send.
        case sendMaskedFrame
        /// Pings the client right after the handshake; on its pong, sends the pong's payload
        /// back as a text message.
        case pingFirst([UInt8])
        /// Sends this many binary messages of this length right after the handshake, as fast as
        /// the connection takes them, then behaves as ``echo``.
        case flood(messages: Int, length: Int)
        /// Records the client's close frame and neither answers it nor ends the connection.
        case neverAnswersClose
        /// Answers the upgrade request with these bytes as they are, whatever it asked.
        case rawResponse(String)
        /// Sends one message of `length` bytes right after the handshake, in frames of at most
        /// `fragmentLength` bytes (the first, then continuations), then behaves as ``echo``:
        /// ``fragmentedPayload(length:)`` as text, or the same bytes as binary.
        case sendFragmented(length: Int, fragmentLength: Int, text: Bool)
        /// Behaves as ``echo``, and after answering a ping sends the text message "ping", so
        /// that the client's pings show among its messages.
        case announcePings
    }

    /// A close frame the server received: its code (nil when it had none) and reason.
    package struct ReceivedClose: Equatable, Sendable {
        package var code: UInt16?
        package var reason: String

        package init(code: UInt16?, reason: String) {
            self.code = code
            self.reason = reason
        }
    }

    package let port: Int
    package let receivedCloses: AsyncStream<ReceivedClose>
    private let listener: any Channel

    private init(port: Int, listener: any Channel, receivedCloses: AsyncStream<ReceivedClose>) {
        self.port = port
        self.listener = listener
        self.receivedCloses = receivedCloses
    }

    /// `ws://127.0.0.1:<port>/<path>`.
    package func url(path: String = "socket") -> String {
        "ws://127.0.0.1:\(port)/\(path)"
    }

    /// The message ``Mode/sendFragmented(length:fragmentLength:text:)`` sends: ASCII letters,
    /// so that it is text too, in a pattern that shows a fragment lost, repeated or reordered.
    package static func fragmentedPayload(length: Int) -> [UInt8] {
        (0..<length).map { UInt8(ascii: "a") + UInt8(($0 / 7 + $0) % 26) }
    }

    package static func start(_ mode: Mode) async throws -> TestWebSocketServer {
        let (closes, continuation) = AsyncStream<ReceivedClose>.makeStream()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if case .rawResponse(let response) = mode {
                        try channel.pipeline.syncOperations.addHandler(RawResponseHandler(response: response))
                        return
                    }
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 24,
                        shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(
                                    WebSocketBehaviour(mode: mode, closes: continuation))
                            }
                        })
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in }))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw TestWebSocketServerError.noLocalAddress
        }
        return TestWebSocketServer(port: port, listener: listener, receivedCloses: closes)
    }

    package func shutdown() async throws {
        do {
            try await listener.close()
        } catch ChannelError.alreadyClosed {}
    }
}

extension TestWebSocketServer.Mode {
    var echoes: Bool {
        switch self {
        case .echo, .flood, .sendFragmented, .announcePings: true
        default: false
        }
    }
}

package enum TestWebSocketServerError: Error {
    case noLocalAddress
}

private final class WebSocketBehaviour: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let mode: TestWebSocketServer.Mode
    private let closes: AsyncStream<TestWebSocketServer.ReceivedClose>.Continuation

    init(mode: TestWebSocketServer.Mode, closes: AsyncStream<TestWebSocketServer.ReceivedClose>.Continuation) {
        self.mode = mode
        self.closes = closes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        switch mode {
        case .echo, .neverAnswersClose, .rawResponse, .announcePings:
            break
        case .sendFragmented(let length, let fragmentLength, let text):
            let payload = TestWebSocketServer.fragmentedPayload(length: length)
            var offset = 0
            repeat {
                let end = min(offset + fragmentLength, length)
                let opcode: WebSocketOpcode = offset > 0 ? .continuation : text ? .text : .binary
                let data = context.channel.allocator.buffer(bytes: payload[offset..<end])
                context.write(wrapOutboundOut(WebSocketFrame(fin: end == length, opcode: opcode, data: data)), promise: nil)
                offset = end
            } while offset < length
            context.flush()
        case .flood(let messages, let length):
            let payload = context.channel.allocator.buffer(repeating: 0x2A, count: length)
            for _ in 0..<messages {
                context.write(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .binary, data: payload)), promise: nil)
            }
            context.flush()
        case .closeFirst(let code, let reason):
            var payload = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
            payload.writeInteger(code)
            payload.writeString(reason)
            send(context, WebSocketFrame(fin: true, opcode: .connectionClose, data: payload))
        case .sendMaskedFrame:
            let frame = WebSocketFrame(
                fin: true, opcode: .text, maskKey: WebSocketMaskingKey([1, 2, 3, 4]),
                data: context.channel.allocator.buffer(string: "masked"))
            send(context, frame)
        case .pingFirst(let payload):
            send(context, WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(bytes: payload)))
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        var payload = frame.unmaskedData
        switch frame.opcode {
        case .text, .binary:
            if mode.echoes {
                send(context, WebSocketFrame(fin: frame.fin, opcode: frame.opcode, data: payload))
            }
        case .continuation:
            if mode.echoes {
                send(context, WebSocketFrame(fin: frame.fin, opcode: .continuation, data: payload))
            }
        case .ping:
            send(context, WebSocketFrame(fin: true, opcode: .pong, data: payload))
            if case .announcePings = mode {
                send(context, WebSocketFrame(fin: true, opcode: .text, data: context.channel.allocator.buffer(string: "ping")))
            }
        case .pong:
            if case .pingFirst = mode {
                send(context, WebSocketFrame(fin: true, opcode: .text, data: payload))
            }
        case .connectionClose:
            let original = payload
            let code: UInt16? = payload.readInteger()
            let reason = payload.readString(length: payload.readableBytes) ?? ""
            closes.yield(TestWebSocketServer.ReceivedClose(code: code, reason: reason))
            if case .neverAnswersClose = mode { return }
            // The server ends the connection first (RFC 6455 §7.1.1), after its echo when it owes one.
            let channel = context.channel
            if mode.echoes {
                context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: original)))
                    .whenComplete { _ in channel.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
        default:
            break
        }
    }

    private func send(_ context: ChannelHandlerContext, _ frame: WebSocketFrame) {
        context.writeAndFlush(wrapOutboundOut(frame), promise: nil)
    }
}

/// Reads up to the end of the request's head, then writes the response and ends the connection.
private final class RawResponseHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let response: String
    private var received = ""
    private var answered = false

    init(response: String) {
        self.response = response
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        received += buffer.readString(length: buffer.readableBytes) ?? ""
        guard !answered, received.contains("\r\n\r\n") else { return }
        answered = true
        let bytes = context.channel.allocator.buffer(string: response)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
    }
}
