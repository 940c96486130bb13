import Courier
import Foundation

extension WebSocket {
    /// What a WebSocket asks of the server and how much it accepts; the transport's
    /// ``/Courier/Policies`` apply to its opening handshake as to any request.
    public struct Options: Sendable, Hashable {
        /// Subprotocols to offer in `Sec-WebSocket-Protocol`, most preferred first; the one the
        /// server chose is ``WebSocket/subprotocol``. An answer naming one not offered fails.
        public var protocols: [String]
        /// The largest message accepted, after decompression; a larger one closes the
        /// connection with 1009 (message too big). 16 MiB by default.
        public var maximumMessageBytes: Int
        /// permessage-deflate (RFC 7692) to offer; nil sends every message as it is. A server
        /// that declines leaves messages uncompressed.
        public var compression: Compression?
        /// How many seconds the connection may go without a frame from the server before it is
        /// closed with 1001 (going away) and reading fails with `URLError(.timedOut)`; nil, the
        /// default, waits as long as the server keeps the connection open.
        public var idleTimeout: TimeInterval?
        /// How many seconds to wait for the server's answer to a close frame, and then for it
        /// to end the connection. 5 by default.
        public var closeTimeout: TimeInterval

        /// Options with the defaults above, changed where given.
        public init(
            protocols: [String] = [], maximumMessageBytes: Int = 16 << 20, compression: Compression? = nil,
            idleTimeout: TimeInterval? = nil, closeTimeout: TimeInterval = 5
        ) {
            self.protocols = protocols
            self.maximumMessageBytes = maximumMessageBytes
            self.compression = compression
            self.idleTimeout = idleTimeout
            self.closeTimeout = closeTimeout
        }
    }

    /// The permessage-deflate parameters a client offers (RFC 7692 §7.1). Context takeover
    /// keeps each side's compression window from one message to the next: better compression,
    /// at up to 32 KiB per side held for the connection's life.
    public struct Compression: Sendable, Hashable {
        /// Whether the client keeps its window between messages; false offers
        /// `client_no_context_takeover`.
        public var clientContextTakeover: Bool
        /// Whether the server may keep its window between messages; false asks for
        /// `server_no_context_takeover`.
        public var serverContextTakeover: Bool
        /// The client's window, 2^bits bytes (9–15; a server may ask for less).
        public var clientMaxWindowBits: Int
        /// The most window the server may use, 2^bits bytes (8–15).
        public var serverMaxWindowBits: Int

        /// An offer with both windows at 32 KiB, kept between messages, changed where given.
        public init(
            clientContextTakeover: Bool = true, serverContextTakeover: Bool = true, clientMaxWindowBits: Int = 15,
            serverMaxWindowBits: Int = 15
        ) {
            self.clientContextTakeover = clientContextTakeover
            self.serverContextTakeover = serverContextTakeover
            self.clientMaxWindowBits = clientMaxWindowBits
            self.serverMaxWindowBits = serverMaxWindowBits
        }

        /// permessage-deflate with both windows at 32 KiB, kept between messages.
        public static let permessageDeflate = Compression()
    }
}
