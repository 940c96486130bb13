import Courier
import Foundation

extension WebSocket {
    /// One whole WebSocket message, in `URLSessionWebSocketTask`'s words: text or bytes.
    public enum Message: Sendable, Hashable {
        /// A text message; its UTF-8 was checked before it was handed over.
        case string(String)
        /// A binary message.
        case data(Data)

        /// How many bytes the message carries on the wire, before any compression.
        package var byteCount: Int {
            switch self {
            case .string(let text): text.utf8.count
            case .data(let data): data.count
            }
        }
    }
}
