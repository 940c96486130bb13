import Courier

/// A transport whose engine opens WebSockets: what ``Courier/HTTPTransport/webSocket(for:options:)``
/// looks for. `URLSessionTransport` conforms here and `CurlTransport` in `CourierCurl`; a
/// transport that does not is refused before anything is sent.
package protocol WebSocketEngine: HTTPTransport {
    /// The engine's opening handshake for a socket with `options`, which `WebSocket.open` puts
    /// the policies over.
    ///
    /// - Throws: `RequestError.unsupportedOption` for what the engine cannot do, with
    ///   nothing sent.
    func webSocketHandshake(for options: WebSocket.Options) async throws -> WebSocketHandshake
}
