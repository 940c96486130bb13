/// How a WebSocket ended, for the call layers that saw its handshake: logging, metrics and
/// tracing record the close as they recorded the 101.
///
/// In plain values rather than `CourierWebSocket`'s types, so that the observability modules
/// see a socket's end without compiling the WebSocket client.
package struct WebSocketEnding: Sendable {
    /// The close code of the close handshake: the server's. Nil when the connection failed.
    package var code: UInt16?
    package var reason: String
    package var closedByServer: Bool
    /// Whether ``code`` ends the connection as intended: 1000, 1001, or a close frame without
    /// a code (1005). False when the connection failed.
    package var isNormalCode: Bool
    /// The failure, when the connection ended without a close handshake or the server broke
    /// the protocol.
    package var error: (any Error)?
    /// From the 101 to the end.
    package var duration: Duration

    package init(code: UInt16?, reason: String, closedByServer: Bool, isNormalCode: Bool, error: (any Error)?, duration: Duration) {
        self.code = code
        self.reason = reason
        self.closedByServer = closedByServer
        self.isNormalCode = isNormalCode
        self.error = error
        self.duration = duration
    }
}

/// Tells the layers over a handshake when the socket it opened ends; once, whenever they ask.
package final class WebSocketEndSignal: Sendable {
    private let state = Locked<(ending: WebSocketEnding?, observers: [@Sendable (WebSocketEnding) -> Void])>((nil, []))

    package init() {}

    /// Calls `observer` once the socket ended; at once when it has.
    package func whenEnded(_ observer: @escaping @Sendable (WebSocketEnding) -> Void) {
        let ended = state.withLock { state -> WebSocketEnding? in
            if state.ending == nil { state.observers.append(observer) }
            return state.ending
        }
        if let ended { observer(ended) }
    }

    package func end(_ ending: WebSocketEnding) {
        let observers = state.withLock { state -> [@Sendable (WebSocketEnding) -> Void] in
            guard state.ending == nil else { return [] }
            state.ending = ending
            defer { state.observers = [] }
            return state.observers
        }
        for observer in observers { observer(ending) }
    }
}

/// The answer of a WebSocket handshake in the place of a body, as the layers over it see it.
package protocol WebSocketOpening: Sendable {
    /// The signal of the socket the handshake opened; nil when it opened none.
    var openedSocketEnd: WebSocketEndSignal? { get }
}

/// The signal of the socket a handshake opened, when `body` is the answer of one that did.
package func webSocketEndSignal(of body: some Sendable) -> WebSocketEndSignal? {
    (body as? any WebSocketOpening)?.openedSocketEnd
}
