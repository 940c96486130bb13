import CourierWebSocket

/// The client side of one WebSocket connection once its handshake is done, as a value: the
/// engine tells it each event (bytes received, a message or a close to send, the connection
/// ended, the close timer fired), and does what the returned action says. Each event has an
/// action enum of its own, so an impossible combination cannot be written, and every order of
/// events is tested without a socket.
///
/// The close handshake (RFC 6455 §5.5.1, §7):
///
/// ```
///        close()              the server's close
/// open ───────────▶ closeSent ──────────────────▶ closeReceived ──end or timer──▶ finished
///   │                                                  ▲
///   └──────── the server's close, echoed ──────────────┘
/// ```
///
/// A violation, or the end of the connection or the close timer before the server's close
/// frame, goes straight to finished. After either close frame the client sends nothing more; after the server's it expects only
/// the end of the connection, which the server is to close first (§7.1.1): the engine waits for
/// it, bounded by a timer, then closes the socket itself. A violation fails the connection
/// (§7.1.7): a close frame with the violation's code (1002, 1007 or 1009, or 1011 when the
/// client's zlib fails) unless the client already sent one, then the socket is closed without
/// reading further.
struct WebSocketConnectionState: Sendable {
    private enum State: Sendable {
        case open
        /// The client sent its close frame and waits for the server's; messages still arrive.
        case closeSent
        /// The server's close frame arrived, and the client's went or goes back: the close
        /// handshake is complete, and only the end of the connection may follow.
        case closeReceived
        /// The connection failed or ended; nothing more happens.
        case finished
    }

    /// What `Courier` allows by default: a message held whole in memory, bounded.
    static let defaultMaximumMessageLength = 16 * 1024 * 1024

    private var state = State.open
    private var decoder: WebSocketFrameDecoder
    private var assembler: WebSocketMessageAssembler
    /// Present when permessage-deflate was agreed: every data message goes compressed.
    private var deflater: WebSocketDeflater?

    /// - Parameters:
    ///   - maximumMessageLength: The most payload bytes one message from the server may have,
    ///     its fragments together, as received and, when compressed, once inflated; past it the
    ///     client closes with 1009.
    ///   - deflate: The permessage-deflate the handshake agreed, nil when none: then a frame
    ///     with RSV1 is a protocol error, and messages go uncompressed.
    init(maximumMessageLength: Int = Self.defaultMaximumMessageLength, deflate: WebSocketDeflateParameters? = nil) {
        decoder = WebSocketFrameDecoder(acceptsCompressedFrames: deflate != nil)
        assembler = WebSocketMessageAssembler(
            maximumMessageLength: maximumMessageLength, inflater: deflate.map(WebSocketInflater.init))
        deflater = deflate.map(WebSocketDeflater.init)
    }

    /// Bytes received and not yet read as frames: what a slow reader holds in memory.
    var bufferedByteCount: Int { decoder.bufferedByteCount }

    /// Whether the client may still send messages: no close frame went either way.
    var isOpen: Bool {
        if case .open = state { true } else { false }
    }

    // MARK: Reading

    /// What to do after bytes arrived; ask again until ``needMoreBytes``.
    enum ReadAction: Equatable, Sendable {
        /// Nothing more in the bytes received so far.
        case needMoreBytes
        /// A whole message from the server.
        case deliver(WebSocketMessage)
        /// The server pinged: send this pong, with the ping's payload.
        case sendPong(WebSocketFrame)
        /// A pong from the server, the answer to a ping or a heartbeat of its own.
        case deliverPong([UInt8])
        /// The server closed first: send this close frame back, report the status, and wait,
        /// with a timer, for the server to end the connection (``connectionEnded()``,
        /// ``closeTimerFired()``).
        case sendCloseEchoThenFinish(echo: WebSocketFrame, status: WebSocketCloseStatus)
        /// The server answered the client's close frame: report the status, and wait for the
        /// end of the connection as above.
        case finish(WebSocketCloseStatus)
        /// The server broke the protocol: send this close frame (the error's code), close the
        /// connection, and fail with the error.
        case sendCloseThenFail(WebSocketFrame, WebSocketError)
        /// The server broke the protocol when a close frame had already gone one way or the
        /// other, so none is sent: close the connection, and fail with the error (or, when its
        /// close status was already reported, only record it).
        case fail(WebSocketError)
    }

    /// Bytes from the connection, in the order received; then ask ``nextReadAction()``.
    mutating func received(_ bytes: some Sequence<UInt8>) {
        switch state {
        case .open, .closeSent, .closeReceived:
            decoder.append(bytes)
        case .finished:
            break
        }
    }

    /// The next thing the bytes received mean.
    mutating func nextReadAction() -> ReadAction {
        switch state {
        case .finished:
            return .needMoreBytes
        case .closeReceived:
            guard decoder.bufferedByteCount > 0 else { return .needMoreBytes }
            state = .finished
            return .fail(.bytesAfterClose)
        case .open, .closeSent:
            while true {
                let event: WebSocketMessageAssembler.Event
                do throws(WebSocketError) {
                    guard
                        let frame = try decoder.nextFrame(
                            messageLengthSoFar: assembler.messageLengthSoFar,
                            maximumMessageLength: assembler.maximumMessageLength)
                    else { return .needMoreBytes }
                    guard let completed = try assembler.receive(frame) else { continue }
                    event = completed
                } catch {
                    return fail(error)
                }
                if let action = act(on: event) { return action }
            }
        }
    }

    /// The action for a completed frame, or nil for one the client lets pass.
    private mutating func act(on event: WebSocketMessageAssembler.Event) -> ReadAction? {
        switch (event, state) {
        case (.message(let message), _):
            return .deliver(message)
        case (.ping(let payload), .open):
            return .sendPong(WebSocketFrame(opcode: .pong, payload: payload))
        case (.ping, _):
            // After its close frame the client sends nothing, a pong included.
            return nil
        case (.pong(let payload), _):
            return .deliverPong(payload)
        case (.close(let status), .open):
            state = .closeReceived
            // The echo carries the code, as §5.5.1 suggests, and no reason; none for a close
            // that had none.
            let echo = WebSocketFrame(opcode: .close, payload: WebSocketCloseStatus(code: status.code).closePayload)
            return .sendCloseEchoThenFinish(echo: echo, status: status)
        case (.close(let status), _):
            state = .closeReceived
            return .finish(status)
        }
    }

    private mutating func fail(_ error: WebSocketError) -> ReadAction {
        defer { state = .finished }
        guard case .open = state else { return .fail(error) }
        let status = WebSocketCloseStatus(code: error.closeCode ?? .protocolError, reason: error.description)
        return .sendCloseThenFail(WebSocketFrame(opcode: .close, payload: status.truncatingReason().closePayload), error)
    }

    // MARK: Sending

    /// What to do with a message, ping or pong the user sends.
    enum SendAction: Equatable, Sendable {
        /// Encode and send this frame.
        case send(WebSocketFrame)
        /// Send nothing; the call fails with this error.
        case refuse(WebSocketError)
    }

    /// A data message, as one frame (the encoder may fragment it), compressed when
    /// permessage-deflate was agreed.
    ///
    /// With the window kept between messages, the server inflates messages in the order they
    /// were compressed: the frames returned must go in the order they were asked for.
    mutating func send(_ message: WebSocketMessage) -> SendAction {
        guard isOpen else { return .refuse(.sendAfterClose) }
        let payload = message.payload
        do throws(WebSocketError) {
            guard let compressed = try deflater?.compress(payload) else {
                return .send(WebSocketFrame(opcode: message.opcode, payload: payload))
            }
            return .send(WebSocketFrame(opcode: message.opcode, payload: compressed, isCompressed: true))
        } catch {
            return .refuse(error)
        }
    }

    /// A ping, whose pong comes back as ``ReadAction/deliverPong(_:)``.
    func ping(_ payload: [UInt8] = []) -> SendAction {
        control(.ping, payload)
    }

    /// A pong nobody asked for: a one-way heartbeat (RFC 6455 §5.5.3).
    func pong(_ payload: [UInt8] = []) -> SendAction {
        control(.pong, payload)
    }

    private func control(_ opcode: WebSocketOpcode, _ payload: [UInt8]) -> SendAction {
        guard isOpen else { return .refuse(.sendAfterClose) }
        guard payload.count <= WebSocketFrame.maximumControlPayloadLength else {
            return .refuse(.controlPayloadTooLong(payload.count))
        }
        return .send(WebSocketFrame(opcode: opcode, payload: payload))
    }

    // MARK: Closing

    /// What to do when the user closes.
    enum CloseAction: Equatable, Sendable {
        /// Send this close frame, then wait, with a timer, for the server's
        /// (``nextReadAction()``, ``closeTimerFired()``).
        case sendClose(WebSocketFrame)
        /// A close frame already went one way or the other: nothing to send.
        case none
        /// Send nothing; the call fails with this error.
        case refuse(WebSocketError)
    }

    /// The user closes with `status`; ``WebSocketCloseCode/noStatusReceived`` sends a close frame
    /// without a code, and then without a reason.
    mutating func close(_ status: WebSocketCloseStatus = WebSocketCloseStatus(code: .normalClosure)) -> CloseAction {
        guard status.code.isAllowedOnTheWire || (status.code == .noStatusReceived && status.reason.isEmpty) else {
            return .refuse(.closeCodeNotSendable(status.code))
        }
        let reasonLength = status.reason.utf8.count
        guard reasonLength <= WebSocketCloseStatus.maximumReasonLength else { return .refuse(.closeReasonTooLong(reasonLength)) }
        guard case .open = state else { return .none }
        state = .closeSent
        return .sendClose(WebSocketFrame(opcode: .close, payload: status.closePayload))
    }

    // MARK: The end of the connection

    /// What to do when the connection ends or the close timer fires.
    enum EndAction: Equatable, Sendable {
        /// Nothing: the event is stale (a timer for a state that has passed).
        case none
        /// Close the connection; the close status was already reported.
        case close
        /// Close the connection and fail with this error; the user is told 1006.
        case fail(WebSocketError)
    }

    /// The connection ended (the server closed it, or reading or writing failed).
    mutating func connectionEnded() -> EndAction {
        defer { state = .finished }
        switch state {
        case .open, .closeSent: return .fail(.connectionEndedWithoutClose)
        case .closeReceived: return .close
        case .finished: return .none
        }
    }

    /// The timer started with a close frame fired: the server did not answer the client's
    /// close, or did not end the connection after the handshake.
    mutating func closeTimerFired() -> EndAction {
        switch state {
        case .closeSent:
            state = .finished
            return .fail(.closeTimedOut)
        case .closeReceived:
            // The server should close first (§7.1.1); one that does not is closed on.
            state = .finished
            return .close
        case .open, .finished:
            return .none
        }
    }
}
