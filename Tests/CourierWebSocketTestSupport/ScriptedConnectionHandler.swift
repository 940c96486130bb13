import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// One connection of a ``ScriptedWebSocketServer``: the handshake, then the script, on the
/// channel's event loop.
final class ScriptedConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Behaviour: Sendable {
        var script: [ScriptedWebSocketServer.Step]
        var answersPings: Bool
        var answersClose: Bool
        var responseFields: [String]
        var framesWithHandshake: [WireFrame]
    }

    private let behaviour: Behaviour
    private let state: NIOLockedValueBox<ScriptedServerState>

    private var head: [UInt8] = []
    private var upgraded = false
    private var parser = ClientFrameParser()
    /// Reads the server's own bytes, to know when its close frame went.
    private var sent = ClientFrameParser()
    private var sentClose = false
    private var receivedClose = false
    private var ending = false
    private var step = 0
    /// A step under way that resumes the script itself: pieces with pauses, or the flood.
    private var busy = false
    private var floodSent = 0

    init(behaviour: Behaviour, state: NIOLockedValueBox<ScriptedServerState>) {
        self.behaviour = behaviour
        self.state = state
    }

    func channelActive(context: ChannelHandlerContext) {
        state.withLockedValue { state in
            state.connections += 1
            state.record = ScriptedClientRecord()
            state.flood = ScriptedWebSocketServer.FloodProgress(stalled: false, finished: false, bytesAccepted: 0)
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        let bytes = buffer.readBytes(length: buffer.readableBytes) ?? []
        guard upgraded else {
            // A refused request's connection is ending; what follows it is not read.
            guard !ending else { return }
            head += bytes
            guard let end = head.firstRange(of: Array("\r\n\r\n".utf8))?.upperBound else { return }
            let rest = Array(head[end...])
            handshake(context: context, head: String(decoding: head[..<end], as: UTF8.self))
            guard upgraded else { return }
            received(rest, context: context)
            runScript(context: context)
            return
        }
        received(bytes, context: context)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if !context.channel.isWritable, busy, case .flood = behaviour.script[step] {
            let (waiters, progress) = state.withLockedValue { state in
                state.flood.stalled = true
                defer { state.floodWaiters = [] }
                return (state.floodWaiters, state.flood)
            }
            for waiter in waiters { waiter.resume(returning: progress) }
        }
        if context.channel.isWritable, busy, case .flood = behaviour.script[step] {
            flood(context: context)
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Pauses and the flood check this before they touch the channel again.
        ending = true
        let pending = parser.pendingByteCount
        let (record, endWaiters, flood, floodWaiters) = state.withLockedValue { state in
            state.record.ended = true
            state.record.trailingByteCount = pending
            defer {
                state.endWaiters = []
                state.floodWaiters = []
            }
            return (state.record, state.endWaiters, state.flood, state.floodWaiters)
        }
        for waiter in endWaiters { waiter.resume(returning: record) }
        for waiter in floodWaiters { waiter.resume(returning: flood) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A client that failed the connection may reset it while the script still writes.
        context.close(promise: nil)
    }

    // MARK: The handshake

    /// Checks the upgrade request as RFC 6455 §4.2.1 says a server does, and answers it: 101
    /// with the accept value for its key, or 400 and the end of the connection.
    private func handshake(context: ChannelHandlerContext, head: String) {
        state.withLockedValue { $0.record.requestHead = head }
        var lines = head.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let requestLine = lines.isEmpty ? "" : lines.removeFirst()
        var fields: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        let tokens = { (name: String) in
            Set((fields[name] ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        let key = fields["sec-websocket-key"] ?? ""
        guard requestLine.hasPrefix("GET "), requestLine.hasSuffix(" HTTP/1.1"), tokens("upgrade").contains("websocket"),
            tokens("connection").contains("upgrade"), fields["sec-websocket-version"] == "13",
            Data(base64Encoded: key)?.count == 16, fields["host"] != nil
        else {
            write(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8), context: context, isFrames: false)
            endConnection(context: context)
            return
        }
        var answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        answer += "Sec-WebSocket-Accept: \(webSocketAcceptValue(forKey: key))\r\n"
        for field in behaviour.responseFields { answer += field + "\r\n" }
        let frames = behaviour.framesWithHandshake.bytes
        noteSent(frames)
        write(Array((answer + "\r\n").utf8) + frames, context: context, isFrames: false)
        upgraded = true
    }

    // MARK: The client's frames

    private func received(_ bytes: [UInt8], context: ChannelHandlerContext) {
        parser.append(bytes)
        var frames: [WireFrame] = []
        while let frame = parser.next() { frames.append(frame) }
        guard !frames.isEmpty else { return }
        state.withLockedValue { $0.record.frames += frames }
        for frame in frames {
            switch frame.opcode {
            case WireFrame.ping where behaviour.answersPings && !sentClose && !receivedClose:
                write(WireFrame.pong(frame.payload).bytes, context: context)
            case WireFrame.close where !receivedClose:
                receivedClose = true
                guard behaviour.answersClose else { break }
                if !sentClose {
                    // The code back, as the client's echo carries it (RFC 6455 §5.5.1).
                    let echo = frame.closeCode.map { WireFrame.close($0) } ?? WireFrame.close(payload: [])
                    write(echo.bytes, context: context)
                }
                endConnection(context: context)
            default:
                break
            }
        }
        runScript(context: context)
    }

    // MARK: The script

    private func runScript(context: ChannelHandlerContext) {
        while !busy, !ending, step < behaviour.script.count {
            switch behaviour.script[step] {
            case .send(let frames):
                write(frames.bytes, context: context)
            case .sendBytes(let bytes):
                write(bytes, context: context)
            case .sendInPieces(let bytes, let size, let pause):
                guard let pause else {
                    for start in stride(from: 0, to: bytes.count, by: max(1, size)) {
                        write(Array(bytes[start..<min(bytes.count, start + max(1, size))]), context: context)
                    }
                    break
                }
                busy = true
                sendPieces(bytes[...], size: max(1, size), pause: pause, context: context)
                return
            case .pause(let pause):
                busy = true
                context.eventLoop.assumeIsolated().scheduleTask(in: timeAmount(pause)) {
                    self.busy = false
                    self.step += 1
                    self.runScript(context: context)
                }
                return
            case .awaitFrames(let count):
                guard state.withLockedValue({ $0.record.frames.count }) >= count else { return }
            case .awaitClose:
                guard receivedClose else { return }
            case .endConnection:
                endConnection(context: context)
                return
            case .flood:
                busy = true
                flood(context: context)
                return
            }
            step += 1
        }
    }

    private func sendPieces(_ bytes: ArraySlice<UInt8>, size: Int, pause: Duration, context: ChannelHandlerContext) {
        guard !ending else { return }
        let piece = bytes.prefix(size)
        write(Array(piece), context: context)
        let rest = bytes.dropFirst(size)
        guard !rest.isEmpty else {
            busy = false
            step += 1
            runScript(context: context)
            return
        }
        context.eventLoop.assumeIsolated().scheduleTask(in: timeAmount(pause)) {
            self.sendPieces(rest, size: size, pause: pause, context: context)
        }
    }

    /// Writes flood messages while the channel takes them; resumed when it is writable again.
    private func flood(context: ChannelHandlerContext) {
        guard case .flood(let messages, let length) = behaviour.script[step], !ending else { return }
        while context.channel.isWritable, floodSent < messages {
            let index = floodSent
            var payload = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: max(4, length))
            for byte in 0..<4 { payload[byte] = UInt8(truncatingIfNeeded: index >> (24 - 8 * byte)) }
            let frame = WireFrame.binary(payload).bytes
            floodSent += 1
            let written = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: frame)))
            let isLast = floodSent == messages
            let state = state
            written.assumeIsolated().whenSuccess {
                let (waiters, progress) = state.withLockedValue { state -> ([FloodWaiter], ScriptedWebSocketServer.FloodProgress) in
                    state.flood.bytesAccepted += frame.count
                    // Only the end of the flood wakes those who wait for it.
                    guard isLast else { return ([], state.flood) }
                    state.flood.finished = true
                    defer { state.floodWaiters = [] }
                    return (state.floodWaiters, state.flood)
                }
                for waiter in waiters { waiter.resume(returning: progress) }
            }
        }
        guard floodSent == messages else { return }
        busy = false
        step += 1
        runScript(context: context)
    }

    // MARK: Writing

    private func write(_ bytes: [UInt8], context: ChannelHandlerContext, isFrames: Bool = true) {
        guard !ending else { return }
        if isFrames { noteSent(bytes) }
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes)), promise: nil)
    }

    private func noteSent(_ bytes: [UInt8]) {
        sent.append(bytes)
        while let frame = sent.next() {
            if frame.opcode == WireFrame.close { sentClose = true }
        }
    }

    /// Ends the connection once what was written went out.
    private func endConnection(context: ChannelHandlerContext) {
        guard !ending else { return }
        ending = true
        let flushed = context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)))
        flushed.assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

private typealias FloodWaiter = CheckedContinuation<ScriptedWebSocketServer.FloodProgress, Never>

private func timeAmount(_ duration: Duration) -> TimeAmount {
    let (seconds, attoseconds) = duration.components
    return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
}
