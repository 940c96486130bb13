import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A server on 127.0.0.1 that answers each WebSocket upgrade request with the next answer of a
/// script, and records every request head it read: for the policies over the handshake (a 401
/// before the 101, a redirect, cookies, the fields sent).
///
/// After a 101 it sends a close frame with 1000 at once and ends the connection once the
/// client's close comes (``Answer/upgradeThenClose``), or stays silent (``Answer/upgradeThenWait``),
/// recording the close frames it reads.
package final class HandshakeScriptServer: Sendable {
    package enum Answer: Sendable {
        /// 101 with these extra fields, then a close frame with 1000.
        case upgradeThenClose(fields: [String] = [])
        /// 101 with these extra fields, then nothing.
        case upgradeThenWait(fields: [String] = [])
        /// This status line and these fields, then the connection ends.
        case status(String, fields: [String] = [])
        /// Reads the request and never answers.
        case silence
    }

    package let port: Int
    private let listener: any Channel
    private let state: NIOLockedValueBox<(script: [Answer], heads: [String], closeCodes: [UInt16?], connections: Int, ended: Int)>

    /// `ws://127.0.0.1:<port>/<path>`.
    package func url(path: String = "socket") -> String {
        "ws://127.0.0.1:\(port)/\(path)"
    }

    /// The request heads read so far, each as text.
    package var requestHeads: [String] { state.withLockedValue { $0.heads } }
    /// The codes of the close frames read after an upgrade (nil for a close without one).
    package var closeCodes: [UInt16?] { state.withLockedValue { $0.closeCodes } }
    /// The connections accepted so far.
    package var connections: Int { state.withLockedValue { $0.connections } }
    /// The connections that ended so far, whichever side ended them.
    package var endedConnections: Int { state.withLockedValue { $0.ended } }

    private init(port: Int, listener: any Channel, state: NIOLockedValueBox<(script: [Answer], heads: [String], closeCodes: [UInt16?], connections: Int, ended: Int)>) {
        self.port = port
        self.listener = listener
        self.state = state
    }

    /// - Parameter accept: The `Sec-WebSocket-Accept` value for a key (the client's own
    ///   computation is the one under test, so the test passes the reference one).
    package static func start(
        _ script: [Answer], unixSocketPath: String? = nil, accept: @escaping @Sendable (String) -> String
    ) async throws -> HandshakeScriptServer {
        let state = NIOLockedValueBox<(script: [Answer], heads: [String], closeCodes: [UInt16?], connections: Int, ended: Int)>((script, [], [], 0, 0))
        let listener = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                state.withLockedValue { $0.connections += 1 }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptedHandshakeHandler(state: state, accept: accept))
                }
            }
        let bound = try await {
            if let unixSocketPath { return try await listener.bind(unixDomainSocketPath: unixSocketPath, cleanupExistingSocketFile: true).get() }
            return try await listener.bind(host: "127.0.0.1", port: 0).get()
        }()
        guard let port = unixSocketPath == nil ? bound.localAddress?.port : 0 else {
            try? await bound.close()
            throw TestWebSocketServerError.noLocalAddress
        }
        return HandshakeScriptServer(port: port, listener: bound, state: state)
    }

    package func shutdown() async throws {
        do {
            try await listener.close()
        } catch ChannelError.alreadyClosed {}
    }
}

private final class ScriptedHandshakeHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let state: NIOLockedValueBox<(script: [HandshakeScriptServer.Answer], heads: [String], closeCodes: [UInt16?], connections: Int, ended: Int)>
    private let accept: @Sendable (String) -> String
    private var head: [UInt8] = []
    private var upgraded = false
    private var frames: [UInt8] = []

    init(
        state: NIOLockedValueBox<(script: [HandshakeScriptServer.Answer], heads: [String], closeCodes: [UInt16?], connections: Int, ended: Int)>,
        accept: @escaping @Sendable (String) -> String
    ) {
        self.state = state
        self.accept = accept
    }

    func channelInactive(context: ChannelHandlerContext) {
        state.withLockedValue { $0.ended += 1 }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        if upgraded {
            frames += bytes
            readCloseFrames(context: context)
            return
        }
        head += bytes
        guard let end = head.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
        let text = String(decoding: head[..<end.lowerBound], as: UTF8.self)
        frames = Array(head[end.upperBound...])
        let answer = state.withLockedValue { state -> HandshakeScriptServer.Answer in
            state.heads.append(text)
            return state.script.isEmpty ? .status("HTTP/1.1 500 Script Ended") : state.script.removeFirst()
        }
        let key = text.split(separator: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }
            .map { String($0.dropFirst("sec-websocket-key:".count)).trimmingCharacters(in: .whitespaces) } ?? ""
        switch answer {
        case .upgradeThenClose(let fields), .upgradeThenWait(let fields):
            upgraded = true
            var response = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            response += "Sec-WebSocket-Accept: \(accept(key))\r\n"
            for field in fields { response += field + "\r\n" }
            var out = context.channel.allocator.buffer(string: response + "\r\n")
            if case .upgradeThenClose = answer { out.writeBytes([0x88, 0x02, 0x03, 0xE8]) }
            context.writeAndFlush(wrapOutboundOut(out), promise: nil)
            readCloseFrames(context: context)
        case .status(let line, let fields):
            let response = ([line] + fields + ["Content-Length: 0", "", ""]).joined(separator: "\r\n")
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(string: response))).whenComplete { _ in
                channel.close(promise: nil)
            }
        case .silence:
            break
        }
    }

    /// Records each whole close frame read (masked, as a client sends it), and ends the
    /// connection after the first.
    private func readCloseFrames(context: ChannelHandlerContext) {
        while frames.count >= 2 {
            let length = Int(frames[1] & 0x7F)
            guard length <= 125, frames.count >= 2 + 4 + length else { return }
            let opcode = frames[0] & 0x0F
            let mask = Array(frames[2..<6])
            let payload = (0..<length).map { frames[6 + $0] ^ mask[$0 % 4] }
            frames.removeFirst(6 + length)
            guard opcode == 0x8 else { continue }
            let code = payload.count >= 2 ? UInt16(payload[0]) << 8 | UInt16(payload[1]) : nil
            state.withLockedValue { $0.closeCodes.append(code) }
            context.close(promise: nil)
            return
        }
    }
}
