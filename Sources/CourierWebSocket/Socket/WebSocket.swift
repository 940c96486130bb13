#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// An open WebSocket (RFC 6455), the same on both engines: send text and binary messages,
/// read the server's as an `AsyncSequence`, ping, and close.
///
/// ```swift
/// let socket = try await transport.webSocket(for: URLRequest(url: URL(string: "wss://example.com/chat")!))
/// try await socket.send(.string("hello"))
/// for try await message in socket.messages {
///     if case .string(let text) = message { print(text) }
/// }
/// ```
///
/// The socket reads ahead of ``messages`` by at most 16 messages or 1 MiB, then stops reading
/// until they are taken: a slow reader holds the server back instead of growing memory. Pings
/// from the server are answered as they are read. Dropping the last reference to the socket
/// ends the connection at once, without a close handshake; ``close(_:reason:)`` ends it
/// properly.
public final class WebSocket: Sendable {
    /// The server's answer to the opening handshake (101 Switching Protocols), with what the
    /// engine measured of it.
    public let head: ResponseHead
    /// The URL of the handshake request, in its `http` or `https` form.
    public let url: URL?

    typealias Inbox = WebSocketInbox<
        CheckedContinuation<Message?, any Error>, CheckedContinuation<Bool, Never>,
        CheckedContinuation<ContinuousClock.Instant, any Error>, CheckedContinuation<Void, Never>
    >

    private let channel: any WebSocketChannel
    private let inbox: Locked<Inbox>
    private let request: URLRequest

    package init(channel: any WebSocketChannel, head: ResponseHead, request: URLRequest, ended: WebSocketEndSignal = WebSocketEndSignal()) {
        self.channel = channel
        self.head = head
        self.request = request
        url = request.url
        let inbox = Locked(Inbox())
        self.inbox = inbox
        // The loop holds the channel and the inbox, never the socket, so that dropping the
        // socket reaches its deinit and ends the connection.
        let opened = ContinuousClock.now
        Task(executorPreference: channel.executor) {
            let ending = await Self.read(channel, into: inbox, describingFor: request)
            ended.end(Self.ending(ending, after: .now - opened))
        }
    }

    deinit {
        channel.abort()
    }

    /// The subprotocol the server chose from ``Options/protocols``, nil when it chose none.
    public var subprotocol: String? { channel.subprotocol }

    /// The close code, once the close handshake completed: the server's. Nil while open, and
    /// when the connection ended without one.
    public var closeCode: CloseCode? {
        inbox.withLock { inbox in
            if case .closed(let code, _, _) = inbox.end { return code }
            return nil
        }
    }

    /// The reason that came with ``closeCode``; empty when the server gave none.
    public var closeReason: String? {
        inbox.withLock { inbox in
            if case .closed(_, let reason, _) = inbox.end { return reason }
            return nil
        }
    }

    /// The messages from the server, in order, as they are read. The sequence ends after the
    /// close handshake: normally when the client closed or the server closed with 1000, 1001 or
    /// no code, with a ``WebSocketCloseError`` when the server closed with another; with a
    /// `URLError` when the connection failed (`.badServerResponse` when the server broke the
    /// protocol, `.dataLengthExceedsMaximum` past ``Options/maximumMessageBytes``,
    /// `.networkConnectionLost` when it ended without a close frame, `.timedOut`). One task
    /// reads at a time.
    public var messages: Messages { Messages(socket: self) }

    /// Sends one message, after the ones sent before it.
    ///
    /// - Throws: ``WebSocketCloseError`` once either side began the close; the connection's
    ///   failure once it failed.
    public func send(_ message: Message) async throws {
        try checkOpen()
        try await describing { try await channel.send(message) }
    }

    /// Sends a ping and returns the time until its pong was read.
    ///
    /// The pong is read by the same reading as ``messages``: while 16 messages or 1 MiB wait
    /// unread, the pong waits behind them.
    public func ping() async throws -> Duration {
        let sent = ContinuousClock.now
        let answered: ContinuousClock.Instant = try await withCheckedThrowingContinuation { waiter in
            switch inbox.withLock({ $0.pingWaits(waiter) }) {
            case .fail(let waiter, let end):
                waiter.resume(throwing: end.map(endError) ?? closeError())
            case .send(let payload):
                Task {
                    do {
                        if try await describing({ try await channel.ping(payload) }) {
                            let answered = ContinuousClock.now
                            if case .answer(let waiter) = inbox.withLock({ $0.receivedPong(payload) }) {
                                waiter.resume(returning: answered)
                            }
                        }
                    } catch {
                        inbox.withLock { $0.pingFailed(payload) }?.resume(throwing: error)
                    }
                }
            }
        }
        return answered - sent
    }

    /// Closes the connection: sends a close frame with `code` and `reason`, then waits until
    /// the server answered and ended the connection, or ``Options/closeTimeout`` passed.
    /// Messages that arrive meanwhile stay readable while they fit the read-ahead bound. Closing
    /// a socket that is closed already returns at once.
    ///
    /// - Parameters:
    ///   - code: 1000–1003, 1007–1014 or 3000–4999.
    ///   - reason: At most 123 bytes of UTF-8; a longer one is cut at a character boundary.
    /// - Throws: ``/Courier/RequestError/unsupportedOption(_:transport:supportedBy:)`` for a
    ///   code that is never sent (1005, 1006, 1015, or outside the ranges above), with nothing
    ///   sent; the connection's failure when it failed before the close completed.
    public func close(_ code: CloseCode = .normalClosure, reason: String = "") async throws {
        guard code.isAllowedOnTheWire else {
            throw RequestError.unsupportedOption(
                "send the WebSocket close code \(code), which is never sent", transport: "WebSocket",
                supportedBy: "no engine; send 1000–1003, 1007–1014 or 3000–4999")
        }
        let reason = Self.fittingCloseReason(reason)
        switch inbox.withLock({ $0.clientCloses(code, reason: reason) }) {
        case .sendClose(let reader):
            reader?.resume(returning: true)
            do {
                try await describing { try await channel.beginClose(code, reason: reason) }
            } catch {
                // The frame could not go: the connection is over.
                channel.abort()
                throw error
            }
        case .awaitEnd:
            break
        }
        await withCheckedContinuation { waiter in
            if inbox.withLock({ $0.endWaits(waiter) }) { waiter.resume() }
        }
        if case .failed(let error) = inbox.withLock({ $0.end }) { throw error }
    }

    // MARK: Reading

    /// Reads events into `inbox` while it has room, until the connection ends; answers how.
    private static func read(
        _ channel: any WebSocketChannel, into inbox: Locked<Inbox>, describingFor request: URLRequest
    ) async -> Inbox.End {
        while true {
            let goOn = await withCheckedContinuation { waiter in
                switch inbox.withLock({ $0.readerWaits(waiter) }) {
                case .read: waiter.resume(returning: true)
                case .stop: waiter.resume(returning: false)
                case .wait: break
                }
            }
            guard goOn else { return inbox.withLock { $0.end } ?? .failed(CancellationError()) }
            let ending: Inbox.End
            do {
                switch try await channel.receive() {
                case .message(let message):
                    if case .deliver(let consumer, let message) = inbox.withLock({ $0.received(message) }) {
                        consumer.resume(returning: message)
                    }
                    continue
                case .pong(let payload):
                    let answered = ContinuousClock.now
                    if case .answer(let waiter) = inbox.withLock({ $0.receivedPong(payload) }) {
                        waiter.resume(returning: answered)
                    }
                    continue
                case .closed(let code, let reason):
                    let byServer = inbox.withLock { $0.clientClose == nil }
                    ending = .closed(code, reason: reason, byServer: byServer)
                }
            } catch {
                ending = .failed(described(error, for: request))
            }
            finish(inbox, ending, url: request.url)
            return ending
        }
    }

    private static func ending(_ end: Inbox.End, after duration: Duration) -> WebSocketEnding {
        switch end {
        case .closed(let code, let reason, let byServer):
            WebSocketEnding(
                code: code.rawValue, reason: reason, closedByServer: byServer, isNormalCode: code.isNormal, error: nil, duration: duration)
        case .failed(let error):
            WebSocketEnding(code: nil, reason: "", closedByServer: false, isNormalCode: false, error: error, duration: duration)
        }
    }

    private static func finish(_ inbox: Locked<Inbox>, _ ending: Inbox.End, url: URL?) {
        let (action, clientClose) = inbox.withLock { ($0.ended(ending), $0.clientClose) }
        guard case .finish(let finish) = action else { return }
        let error = endError(ending, clientClose: clientClose, url: url)
        finish.reader?.resume(returning: false)
        for ping in finish.pings { ping.resume(throwing: error) }
        for waiter in finish.endWaiters { waiter.resume() }
        if let consumer = finish.consumer { resume(consumer, with: ending, url: url) }
    }

    /// What the reader of ``messages`` gets at the end: nil, or the error.
    fileprivate static func resume(_ consumer: CheckedContinuation<Message?, any Error>, with ending: Inbox.End, url: URL?) {
        switch ending {
        case .closed(let code, _, let byServer) where !byServer || code.isNormal:
            consumer.resume(returning: nil)
        case .closed, .failed:
            // Only the server's close is thrown here, so there is no client close to name.
            consumer.resume(throwing: endError(ending, clientClose: nil, url: url))
        }
    }

    /// The error for what can no longer be done once the connection ended so. A close the
    /// client began is its own, code and reason, whatever the server answered with.
    private static func endError(
        _ ending: Inbox.End, clientClose: (code: CloseCode, reason: String)?, url: URL?
    ) -> any Error {
        switch ending {
        case .closed(let code, let reason, let byServer):
            if !byServer, let clientClose {
                return WebSocketCloseError(code: clientClose.code, reason: clientClose.reason, closedByServer: false, url: url)
            }
            return WebSocketCloseError(code: code, reason: reason, closedByServer: byServer, url: url)
        case .failed(let error):
            return error
        }
    }

    private func endError(_ ending: Inbox.End) -> any Error {
        Self.endError(ending, clientClose: inbox.withLock { $0.clientClose }, url: url)
    }

    private func closeError() -> any Error {
        let close = inbox.withLock { $0.clientClose }
        return WebSocketCloseError(code: close?.code ?? .normalClosure, reason: close?.reason ?? "", closedByServer: false, url: url)
    }

    private func checkOpen() throws {
        let (end, close) = inbox.withLock { ($0.end, $0.clientClose) }
        if let end { throw endError(end) }
        if let close { throw WebSocketCloseError(code: close.code, reason: close.reason, closedByServer: false, url: url) }
    }

    private func describing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.described(error, for: request)
        }
    }

    private static func described(_ error: any Error, for request: URLRequest) -> any Error {
        (error as? URLError)?.described(for: request) ?? error
    }

    fileprivate func next() async throws -> Message? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { waiter in
                // Read under the lock: a cancellation handler that runs before it finds no
                // waiter, and one that runs after finds this one.
                let action = inbox.withLock { inbox in Task.isCancelled ? nil : inbox.consumerWaits(waiter) }
                guard let action else { return waiter.resume(throwing: CancellationError()) }
                switch action {
                case .deliver(let waiter, let message, let reader):
                    reader?.resume(returning: true)
                    waiter.resume(returning: message)
                case .finish(let waiter, let ending):
                    Self.resume(waiter, with: ending, url: url)
                case .refuse(let waiter):
                    waiter.resume(throwing: URLError(.unknown, "another task already reads this WebSocket's messages", url: url))
                case .wait:
                    break
                }
            }
        } onCancel: {
            inbox.withLock { $0.consumerCancelled() }?.resume(throwing: CancellationError())
        }
    }

    /// The most UTF-8 bytes a close reason may have: a control frame's 125, less the code's 2.
    package static let maximumCloseReasonBytes = 123

    /// `text` cut to ``maximumCloseReasonBytes`` of UTF-8, at a character boundary.
    package static func fittingCloseReason(_ text: String) -> String {
        let limit = maximumCloseReasonBytes
        guard text.utf8.count > limit else { return text }
        var length = 0
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            length += UTF8.width(scalar)
            guard length <= limit else { break }
            kept.append(scalar)
        }
        return String(kept)
    }
}

extension WebSocket {
    /// The server's messages; see ``WebSocket/messages``.
    public struct Messages: AsyncSequence, Sendable {
        /// One message from the server.
        public typealias Element = Message
        let socket: WebSocket

        /// An iterator over the messages; one reads at a time.
        public func makeAsyncIterator() -> Iterator {
            Iterator(socket: socket)
        }

        /// Reads the server's messages in order.
        public struct Iterator: AsyncIteratorProtocol {
            let socket: WebSocket

            /// The next message; nil after a normal end (see ``WebSocket/messages``).
            public mutating func next() async throws -> Message? {
                try await socket.next()
            }
        }
    }
}
