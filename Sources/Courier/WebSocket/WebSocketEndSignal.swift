/// How a WebSocket ended, for the call layers that saw its handshake: logging, metrics and
/// tracing record the close as they recorded the 101.
package struct WebSocketEnding: Sendable {
    /// The close code of the close handshake: the server's. Nil when the connection failed.
    package var code: WebSocket.CloseCode?
    package var reason: String
    package var closedByServer: Bool
    /// The failure, when the connection ended without a close handshake or the server broke
    /// the protocol.
    package var error: (any Error)?
    /// From the 101 to the end.
    package var duration: Duration
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

    func end(_ ending: WebSocketEnding) {
        let observers = state.withLock { state -> [@Sendable (WebSocketEnding) -> Void] in
            guard state.ending == nil else { return [] }
            state.ending = ending
            defer { state.observers = [] }
            return state.observers
        }
        for observer in observers { observer(ending) }
    }
}

/// The signal of the socket a handshake opened, when `body` is the answer of one that did.
package func webSocketEndSignal(of body: some Sendable) -> WebSocketEndSignal? {
    guard let upgrade = body as? WebSocketUpgrade, upgrade.channel != nil else { return nil }
    return upgrade.ended
}
