#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// What an engine answers a WebSocket handshake with, in the place of a body: the open
/// channel when the server switched protocols, nothing when it answered otherwise (the engine
/// has then closed the connection). The policy layers pass it along as they pass a body.
package struct WebSocketUpgrade: Sendable {
    package let channel: (any WebSocketChannel)?
    /// Tells the layers that saw the handshake how the socket ended.
    package let ended = WebSocketEndSignal()

    package init(_ channel: (any WebSocketChannel)?) {
        self.channel = channel
    }
}

extension WebSocketUpgrade: WebSocketOpening {
    package var openedSocketEnd: WebSocketEndSignal? { channel == nil ? nil : ended }
}

extension WebSocketUpgrade: ExchangeBody {
    // The socket's later errors are described by the socket, for its handshake request.
    package func describingErrors(for request: URLRequest) -> Self { self }

    // The total deadline bounds the handshake only: an open socket lasts as long as it is used.
    package func ending(at deadline: ContinuousClock.Instant, with error: @escaping @Sendable () -> URLError) -> Self { self }

    package func redirected(after hops: [ExchangeMetrics]) -> Self { self }

    package func retried(after attempts: [ExchangeAttempt]) -> Self { self }

    // A handshake never goes through the cache (see `webSocketLayers`).
    package func storing(into writer: any CacheBodyWriter) -> Self { self }

    package static func stored(_ reader: any CacheBodyReader, url: URL?, metrics: ExchangeMetrics) -> Self? {
        reader.close()
        return nil
    }
}

/// An engine's WebSocket handshake: the request as the layers made it (in its `http` or
/// `https` form), with the options; answers with the server's head and, after a valid 101,
/// the channel.
package typealias WebSocketHandshake = @Sendable (URLRequest, WebSocket.Options) async throws -> (WebSocketUpgrade, ResponseHead)
