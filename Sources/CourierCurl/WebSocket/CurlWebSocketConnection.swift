#if os(Linux)
import CourierWebSocket

/// A client WebSocket connection over a socket libcurl opened with `CURLOPT_CONNECT_ONLY`
/// (TCP, a proxy's CONNECT tunnel, TLS), spoken on with `curl_easy_send` and `curl_easy_recv`.
/// ``WebSocketConnectionState`` decides what each event means; this type does the I/O it asks
/// for. Made by ``connect(to:protocols:deflate:configuration:loop:maximumMessageLength:connectTimeout:handshakeTimeout:closeTimeout:)``.
///
/// Every method runs on the thread of the transport's event loop (it prefers the loop as its
/// task executor), and the socket waits in that loop's epoll set: no thread blocks per socket,
/// and the state below is touched by that one thread only, which is what makes the type
/// `Sendable`.
///
/// The socket is read only inside ``receive()`` (or ``close(code:reason:)``), one chunk at a
/// time while the decoder needs more bytes: a reader that does not ask stops the reading, and
/// the server's further bytes wait in the kernel's buffers, which then hold the server back.
/// Pings that arrive meanwhile are answered when they are read.
final class CurlWebSocketConnection: @unchecked Sendable {
    /// What ``receive()`` hands back.
    enum Event: Equatable, Sendable {
        case message(WebSocketMessage)
        /// A pong from the server: the answer to a ``ping(_:)``, or a heartbeat of its own.
        case pong([UInt8])
        /// The close handshake completed with the server's status; nothing more comes.
        case closed(WebSocketCloseStatus)
    }

    /// The subprotocol the server chose, nil when it chose none.
    let subprotocol: String?
    /// The permessage-deflate the server agreed to, nil when the client offered none or the
    /// server declined: then messages go uncompressed.
    let deflate: WebSocketDeflateParameters?
    let loop: CurlEventLoop
    private let socket: Int32
    private let closeTimeout: Duration
    /// How long the server may send nothing before the client closes with 1001; nil waits.
    private let idleTimeout: Duration?

    // The loop's thread only.
    /// Nil once the connection is closed: libcurl closes the socket when the handle goes, so the
    /// handle stays for exactly as long as the socket is used.
    private var handle: CurlConnectOnlyHandle?
    private var state: WebSocketConnectionState
    private var encoder = WebSocketFrameEncoder()
    private var receiveBuffer: [UInt8]
    private var isReceiving = false
    private var isWriting = false
    private var writersWaiting: [CheckedContinuation<Void, Never>] = []
    /// When the close timer fires: set when a close frame goes or comes.
    private var closeDeadline: ContinuousClock.Instant?
    /// When bytes last came from the server, for the idle timeout.
    private var lastReceived = ContinuousClock.now
    /// How the connection ended, once it did: every later receive reports it again.
    private var end: Result<Event, any Error>?
    /// Closes waiting for the receive under way to return, after which they read themselves.
    private var receiveWaiters: [CheckedContinuation<Void, Never>] = []

    /// Bytes read per `curl_easy_recv`: one TLS record's worth and more.
    static let receiveChunkSize = 64 * 1024

    /// Bytes read from the socket that no receive took yet. The loop's thread only.
    var bufferedByteCount: Int { state.bufferedByteCount }

    init(
        handle: CurlConnectOnlyHandle, socket: Int32, loop: CurlEventLoop, subprotocol: String?, deflate: WebSocketDeflateParameters? = nil,
        bytesAfterHead: ArraySlice<UInt8>, maximumMessageLength: Int, closeTimeout: Duration, idleTimeout: Duration? = nil
    ) {
        self.handle = handle
        self.socket = socket
        self.loop = loop
        self.subprotocol = subprotocol
        self.deflate = deflate
        self.closeTimeout = closeTimeout
        self.idleTimeout = idleTimeout
        receiveBuffer = Array(repeating: 0, count: Self.receiveChunkSize)
        state = WebSocketConnectionState(maximumMessageLength: maximumMessageLength, deflate: deflate)
        // The server may send its first frames right behind the 101's head.
        state.received(bytesAfterHead)
    }

    // MARK: What users call

    /// The next message, pong or the close; one receive at a time. Throws a ``WebSocketError``
    /// when the server broke the protocol (the client closed with its code) or the connection
    /// ended without the close handshake.
    func receive() async throws -> Event {
        try await withTaskExecutorPreference(loop) { try await self.receiveOnLoop() }
    }

    func send(_ message: WebSocketMessage) async throws {
        try await withTaskExecutorPreference(loop) { try await self.sendOnLoop(.message(message)) }
    }

    /// Sends a ping; its pong comes back through ``receive()``.
    func ping(_ payload: [UInt8] = []) async throws {
        try await withTaskExecutorPreference(loop) { try await self.sendOnLoop(.ping(payload)) }
    }

    /// Starts the close handshake, or joins the one under way, and returns the server's status
    /// once the server answered and ended the connection. Messages that arrive meanwhile are
    /// dropped unless a ``receive()`` is waiting, which gets them.
    func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") async throws -> WebSocketCloseStatus {
        try await withTaskExecutorPreference(loop) {
            try await self.closeOnLoop(WebSocketCloseStatus(code: code, reason: reason))
        }
    }

    /// Sends a close frame, unless one went already, and returns: the receive under way (or
    /// the next) reads on to the server's close, bounded by the close timeout.
    func beginClose(code: WebSocketCloseCode, reason: String) async throws {
        try await withTaskExecutorPreference(loop) {
            try await self.beginCloseOnLoop(WebSocketCloseStatus(code: code, reason: reason))
        }
    }

    /// Ends the connection now, without a close handshake: a receive waiting fails.
    func abort() {
        Task(executorPreference: loop) { await self.abortOnLoop() }
    }

    // MARK: On the loop's thread

    private func abortOnLoop() async {
        // A loop that shut down closed its sockets' waits already; the handle goes with this.
        guard loop.isCurrentThread, end == nil else { return }
        _ = fail(WebSocketError.connectionEndedWithoutClose)
    }

    private func beginCloseOnLoop(_ status: WebSocketCloseStatus) async throws {
        try checkOnLoop()
        switch state.close(status) {
        case .refuse(let error):
            throw error
        case .none:
            break
        case .sendClose(let frame):
            closeDeadline = .now + closeTimeout
            try await write(frame)
            // A receive already waiting waits without the deadline: wake it to wait again with it.
            if isReceiving { loop.endWaits(on: socket) }
        }
    }

    private func checkOnLoop() throws {
        // A loop that shut down runs its tasks' jobs elsewhere; the state is not to be touched there.
        guard loop.isCurrentThread else { throw CurlWebSocketConnectionError.eventLoopUnavailable }
    }

    private enum Outgoing {
        case message(WebSocketMessage)
        case ping([UInt8])
    }

    // The closures given to withTaskExecutorPreference may run where their caller runs; only a
    // nonisolated async function is sure to start on the loop, so the state is read in one.
    // Between the state's action and write's place in the queue of writers nothing suspends, so
    // messages go out in the order they were compressed, which a kept window needs.
    private func sendOnLoop(_ outgoing: Outgoing) async throws {
        try checkOnLoop()
        let action = switch outgoing {
        case .message(let message): state.send(message)
        case .ping(let payload): state.ping(payload)
        }
        switch action {
        case .refuse(let error): throw error
        case .send(let frame): try await write(frame)
        }
    }

    private func closeOnLoop(_ status: WebSocketCloseStatus) async throws -> WebSocketCloseStatus {
        try await beginCloseOnLoop(status)
        while true {
            if end == nil, isReceiving {
                await withCheckedContinuation { receiveWaiters.append($0) }
                continue
            }
            if case .closed(let status) = try await receiveOnLoop() { return status }
        }
    }

    private func receiveOnLoop() async throws -> Event {
        try checkOnLoop()
        if let end { return try end.get() }
        guard !isReceiving else { throw CurlWebSocketConnectionError.receiveInProgress }
        isReceiving = true
        defer {
            isReceiving = false
            let waiters = receiveWaiters
            receiveWaiters = []
            for waiter in waiters { waiter.resume() }
        }
        while true {
            switch state.nextReadAction() {
            case .needMoreBytes:
                try await readMore()
            case .deliver(let message):
                return .message(message)
            case .deliverPong(let payload):
                return .pong(payload)
            case .sendPong(let frame):
                try await write(frame)
            case .sendCloseEchoThenFinish(let echo, let status):
                // The server's status stands even when the echo cannot go: report it.
                try? await write(echo)
                await awaitEndOfConnection()
                end = end ?? .success(.closed(status))
                return .closed(status)
            case .finish(let status):
                await awaitEndOfConnection()
                end = end ?? .success(.closed(status))
                return .closed(status)
            case .sendCloseThenFail(let frame, let error):
                try? await write(frame)
                throw fail(error)
            case .fail(let error):
                throw fail(error)
            }
        }
    }

    /// Reads one chunk into the state, waiting for the socket when it has nothing; the end of
    /// the connection or the close timer ends the connection and throws.
    private func readMore() async throws {
        while true {
            guard let easy = handle?.pointer else { throw fail(WebSocketError.connectionEndedWithoutClose) }
            let count: Int?
            do {
                count = try receiveBuffer.withUnsafeMutableBytes { buffer in try Curl.receive(easy, into: buffer) }
            } catch {
                throw connectionEnded(cause: error)
            }
            guard let count else {
                // Only after CURLE_AGAIN: TLS may hold a whole record read from the socket,
                // which no readiness would announce.
                let idleDeadline = closeDeadline == nil ? idleTimeout.map { lastReceived + $0 } : nil
                switch await loop.waitUntilReady(socket, writing: false, deadline: closeDeadline ?? idleDeadline) {
                case .ready: continue
                case .timedOut where idleDeadline != nil: try await idleTimerFired()
                case .timedOut: try closeTimerFired()
                case .unavailable: throw fail(CurlWebSocketConnectionError.eventLoopUnavailable)
                }
                continue
            }
            guard count > 0 else { throw connectionEnded(cause: nil) }
            lastReceived = .now
            state.received(receiveBuffer[..<count])
            return
        }
    }

    /// The connection ended (or reading failed, with `cause`) before the server's close frame.
    private func connectionEnded(cause: (any Error)?) -> any Error {
        switch state.connectionEnded() {
        case .fail(let error): fail(cause ?? error)
        case .close, .none: fail(cause ?? WebSocketError.connectionEndedWithoutClose)
        }
    }

    /// The close timer fired while the client waited for the server's close frame.
    private func closeTimerFired() throws {
        switch state.closeTimerFired() {
        case .none: return
        case .close: throw fail(WebSocketError.closeTimedOut)
        case .fail(let error): throw fail(error)
        }
    }

    /// The server sent nothing for the idle timeout: the client says it is going away, and the
    /// connection ends without waiting for the answer.
    private func idleTimerFired() async throws {
        guard let idleTimeout else { return }
        if case .sendClose(let frame) = state.close(WebSocketCloseStatus(code: .goingAway, reason: "idle")) {
            try? await write(frame)
        }
        throw fail(CurlWebSocketConnectionError.idleTimedOut(idleTimeout))
    }

    /// After the close handshake: waits for the server to end the connection (it closes first,
    /// RFC 6455 §7.1.1), bounded by the close timer, then closes the socket.
    private func awaitEndOfConnection() async {
        closeDeadline = .now + closeTimeout
        reading: while let easy = handle?.pointer {
            let count: Int?
            do {
                count = try receiveBuffer.withUnsafeMutableBytes { buffer in try Curl.receive(easy, into: buffer) }
            } catch {
                _ = state.connectionEnded()
                break reading
            }
            guard let count else {
                if await loop.waitUntilReady(socket, writing: false, deadline: closeDeadline) != .ready {
                    _ = state.closeTimerFired()
                    break reading
                }
                continue
            }
            guard count > 0 else {
                _ = state.connectionEnded()
                break reading
            }
            // Nothing may follow the close frame; the state reports it as a failure, which only
            // closes the socket now that the status was reported.
            state.received(receiveBuffer[..<count])
            if case .fail = state.nextReadAction() { break reading }
        }
        closeSocket()
    }

    /// Ends the connection with `error`, which every later receive and close throws again.
    private func fail(_ error: any Error) -> any Error {
        closeSocket()
        end = end ?? .failure(error)
        return error
    }

    /// Closes the socket (libcurl does, with the handle), after waking whoever waits on it.
    private func closeSocket() {
        guard handle != nil else { return }
        loop.endWaits(on: socket)
        handle = nil
    }

    // MARK: Writing

    private func write(_ frame: WebSocketFrame) async throws {
        try await write(encoder.encode(frame))
    }

    /// Writes all of `bytes`, after any write under way: frames never interleave.
    private func write(_ bytes: [UInt8]) async throws {
        if isWriting {
            await withCheckedContinuation { writersWaiting.append($0) }
        } else {
            isWriting = true
        }
        defer {
            if writersWaiting.isEmpty { isWriting = false } else { writersWaiting.removeFirst().resume() }
        }
        var offset = 0
        while offset < bytes.count {
            guard let easy = handle?.pointer else { throw WebSocketError.connectionEndedWithoutClose }
            let sent: Int?
            do {
                sent = try bytes.withUnsafeBytes { buffer in try Curl.send(easy, UnsafeRawBufferPointer(rebasing: buffer[offset...])) }
            } catch {
                _ = state.connectionEnded()
                throw fail(error)
            }
            if let sent {
                offset += sent
                continue
            }
            if await loop.waitUntilReady(socket, writing: true) == .unavailable {
                throw fail(CurlWebSocketConnectionError.eventLoopUnavailable)
            }
        }
    }
}
#endif
