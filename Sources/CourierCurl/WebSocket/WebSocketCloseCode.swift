import Courier
import CourierWebSocket

/// The close codes the framing reads and writes are the public ones.
typealias WebSocketCloseCode = WebSocket.CloseCode

extension WebSocket.CloseCode {
    init(_ rawValue: UInt16) {
        self.init(rawValue: rawValue)
    }
}
