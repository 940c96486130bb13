import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A WebSocket server on 127.0.0.1 that plays a script, for the conformance suite: it checks
/// the client's upgrade request and answers it with a correct 101, then sends exactly the bytes
/// the script says (frames from ``WireFrame``, unmasked), waits where it says, and records
/// every frame the client sends, unmasked, in ``record``. Tests then assert on what the client
/// answered: its echo, its pong, its close code.
///
/// Besides the script it does what Autobahn|Testsuite's server does: it answers the client's
/// pings with pongs, and a close frame from the client with one of its own carrying the same
/// code (unless it sent one already), then ends the connection, as RFC 6455 §7.1.1 says a server
/// does. Either can be turned off.
///
/// ```swift
/// let server = try await ScriptedWebSocketServer.start([.send([.text("hello")]), .awaitFrames(1), .send([.close(1000)])])
/// // open a WebSocket to server.url, echo, then:
/// let record = await server.connectionEnded()
/// #expect(record.messages.first?.payload == Array("hello".utf8))
/// try await server.shutdown()
/// ```
package final class ScriptedWebSocketServer: Sendable {
    package enum Step: Sendable {
        /// Writes these frames in one write.
        case send([WireFrame])
        /// Writes these bytes in one write.
        case sendBytes([UInt8])
        /// Writes these bytes `size` at a time, each piece flushed on its own, with `pause`
        /// between pieces when given, so that the client reads them in as many reads.
        case sendInPieces([UInt8], size: Int, pause: Duration? = nil)
        /// Waits this long before the next step, so that the client reads what went before on
        /// its own.
        case pause(Duration)
        /// Waits until the client has sent this many frames in all.
        case awaitFrames(Int)
        /// Waits until the client has sent a close frame.
        case awaitClose
        /// Ends the connection (TCP), whatever was said before.
        case endConnection
        /// Sends this many binary messages of `length` bytes each (at least 4), the first four
        /// bytes of each its index, big-endian, and the rest the index's low byte, as fast as
        /// the connection takes them; ``floodStalledOrFinished()`` says when it stalls.
        case flood(messages: Int, length: Int)
    }

    /// What the flood had sent when it stalled or finished.
    package struct FloodProgress: Sendable, Equatable {
        /// Whether the server's writes stopped being accepted: the bytes it wrote, past its
        /// high-water mark, wait for the client to read.
        package var stalled: Bool
        /// Whether every message was accepted by the kernel.
        package var finished: Bool
        /// The bytes of the messages the kernel accepted so far, frame headers included.
        package var bytesAccepted: Int

        package init(stalled: Bool, finished: Bool, bytesAccepted: Int) {
            self.stalled = stalled
            self.finished = finished
            self.bytesAccepted = bytesAccepted
        }
    }

    /// How far ahead of the kernel the flood writes before it counts as stalled: NIO's
    /// high-water mark, well above one message, so that a single write never looks like a stall.
    package static let writeHighWaterMark = 1 << 20

    package let port: Int
    private let listener: any Channel
    private let state: NIOLockedValueBox<ScriptedServerState>

    /// `ws://127.0.0.1:<port>/conformance`.
    package var url: URL { URL(string: "ws://127.0.0.1:\(port)/conformance")! }

    private init(port: Int, listener: any Channel, state: NIOLockedValueBox<ScriptedServerState>) {
        self.port = port
        self.listener = listener
        self.state = state
    }

    /// Starts a server that plays `script` on each connection.
    ///
    /// - Parameters:
    ///   - answersPings: Whether the client's pings get pongs with their payload.
    ///   - answersClose: Whether a close frame from the client gets one back (when the server
    ///     sent none yet) and then the end of the connection; false leaves it unanswered and
    ///     the connection open.
    ///   - responseFields: Extra fields for the 101, `Name: value` each.
    ///   - framesWithHandshake: Frames written in the same write as the 101, right behind its head.
    package static func start(
        _ script: [Step], answersPings: Bool = true, answersClose: Bool = true, responseFields: [String] = [],
        framesWithHandshake: [WireFrame] = []
    ) async throws -> ScriptedWebSocketServer {
        let state = NIOLockedValueBox(ScriptedServerState())
        let behaviour = ScriptedConnectionHandler.Behaviour(
            script: script, answersPings: answersPings, answersClose: answersClose, responseFields: responseFields,
            framesWithHandshake: framesWithHandshake)
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelOption(
                .writeBufferWaterMark,
                value: ChannelOptions.Types.WriteBufferWaterMark(low: writeHighWaterMark / 2, high: writeHighWaterMark))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ScriptedConnectionHandler(behaviour: behaviour, state: state))
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port else {
            try? await listener.close()
            throw TestWebSocketServerError.noLocalAddress
        }
        return ScriptedWebSocketServer(port: port, listener: listener, state: state)
    }

    /// What the latest connection's client sent so far.
    package var record: ScriptedClientRecord { state.withLockedValue { $0.record } }

    /// How many connections the server accepted.
    package var connections: Int { state.withLockedValue { $0.connections } }

    /// What the client sent, once the connection ended, whichever side ended it.
    package func connectionEnded() async -> ScriptedClientRecord {
        await withCheckedContinuation { waiter in
            let ended: ScriptedClientRecord? = state.withLockedValue { state in
                if state.record.ended { return state.record }
                state.endWaiters.append(waiter)
                return nil
            }
            if let ended { waiter.resume(returning: ended) }
        }
    }

    /// The flood's progress once it stalled or finished, whichever came first, or once the
    /// connection ended.
    package func floodStalledOrFinished() async -> FloodProgress {
        await withCheckedContinuation { waiter in
            let progress: FloodProgress? = state.withLockedValue { state in
                if state.flood.stalled || state.flood.finished || state.record.ended { return state.flood }
                state.floodWaiters.append(waiter)
                return nil
            }
            if let progress { waiter.resume(returning: progress) }
        }
    }

    /// The flood's progress now.
    package var floodProgress: FloodProgress { state.withLockedValue { $0.flood } }

    package func shutdown() async throws {
        do {
            try await listener.close()
        } catch ChannelError.alreadyClosed {}
    }
}

/// What the client sent on one connection.
package struct ScriptedClientRecord: Sendable {
    /// The upgrade request's head, as text.
    package var requestHead = ""
    /// Every frame the client sent after the handshake, in order, unmasked.
    package var frames: [WireFrame] = []
    /// Bytes after the last whole frame when the connection ended: a frame cut short.
    package var trailingByteCount = 0
    /// Whether the connection has ended.
    package var ended = false

    package init() {}

    /// The client's close frames.
    package var closes: [WireFrame] { frames.filter { $0.opcode == WireFrame.close } }
    /// The code of the client's first close frame; nil when it sent none or one without a code.
    package var closeCode: UInt16? { closes.first?.closeCode }
    /// Whether the client sent a close frame.
    package var sentClose: Bool { !closes.isEmpty }
    package var pongs: [[UInt8]] { frames.filter { $0.opcode == WireFrame.pong }.map(\.payload) }
    package var pings: [[UInt8]] { frames.filter { $0.opcode == WireFrame.ping }.map(\.payload) }
    /// Whether every frame came masked, as a client's must (RFC 6455 §5.3).
    package var allMasked: Bool { frames.allSatisfy(\.masked) }
    /// The frames after the first close frame, which the client must not send.
    package var framesAfterClose: [WireFrame] {
        guard let index = frames.firstIndex(where: { $0.opcode == WireFrame.close }) else { return [] }
        return Array(frames[(index + 1)...])
    }

    /// The client's data messages, their fragments joined; a message still open at the end is left out.
    package var messages: [WireMessage] {
        var messages: [WireMessage] = []
        var open: WireMessage?
        for frame in frames where !frame.isControl {
            if frame.opcode == WireFrame.continuation {
                open?.payload += frame.payload
                open?.frameCount += 1
            } else {
                open = WireMessage(opcode: frame.opcode, payload: frame.payload, frameCount: 1)
            }
            if frame.fin, let message = open {
                messages.append(message)
                open = nil
            }
        }
        return messages
    }
}

struct ScriptedServerState {
    var record = ScriptedClientRecord()
    var connections = 0
    var endWaiters: [CheckedContinuation<ScriptedClientRecord, Never>] = []
    var flood = ScriptedWebSocketServer.FloodProgress(stalled: false, finished: false, bytesAccepted: 0)
    var floodWaiters: [CheckedContinuation<ScriptedWebSocketServer.FloodProgress, Never>] = []
}
