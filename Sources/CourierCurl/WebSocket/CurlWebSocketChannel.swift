#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import Foundation

/// A ``CurlWebSocketConnection`` as the ``/Courier/WebSocket`` every engine gives: the public
/// messages and close codes, and its errors as the `URLError`s URLSession would throw.
final class CurlWebSocketChannel: WebSocketChannel {
    let connection: CurlWebSocketConnection
    private let url: URL?

    init(_ connection: CurlWebSocketConnection, url: URL?) {
        self.connection = connection
        self.url = url
    }

    var subprotocol: String? { connection.subprotocol }

    var executor: (any TaskExecutor)? { connection.loop }

    func receive() async throws -> WebSocketEvent {
        let event: CurlWebSocketConnection.Event
        do {
            event = try await connection.receive()
        } catch {
            throw Self.urlError(for: error, url: url)
        }
        switch event {
        case .message(.text(let text)): return .message(.string(text))
        case .message(.binary(let bytes)): return .message(.data(Data(bytes)))
        case .pong(let payload): return .pong(payload)
        case .closed(let status): return .closed(status.code, reason: status.reason)
        }
    }

    func send(_ message: WebSocket.Message) async throws {
        let framed: WebSocketMessage =
            switch message {
            case .string(let text): .text(text)
            case .data(let data): .binary(Array(data))
            }
        do {
            try await connection.send(framed)
        } catch {
            throw Self.urlError(for: error, url: url)
        }
    }

    func ping(_ payload: [UInt8]) async throws -> Bool {
        do {
            try await connection.ping(payload)
            return false
        } catch {
            throw Self.urlError(for: error, url: url)
        }
    }

    func beginClose(_ code: WebSocket.CloseCode, reason: String) async throws {
        do {
            try await connection.beginClose(code: code, reason: reason)
        } catch {
            throw Self.urlError(for: error, url: url)
        }
    }

    func abort() {
        connection.abort()
    }

    /// The `URLError` for what the connection threw: the code URLSession gives the same failure,
    /// and the connection's words, with the close code the client sent when it sent one.
    static func urlError(for error: any Error, url: URL?) -> any Error {
        switch error {
        case let error as WebSocketError:
            let code: URLError.Code =
                switch error {
                case .messageTooLarge, .compressedMessageTooLarge: .dataLengthExceedsMaximum
                case .connectionEndedWithoutClose: .networkConnectionLost
                case .closeTimedOut: .timedOut
                case .sendAfterClose: .networkConnectionLost
                // The client's own zlib, not the server, failed.
                case .compressionFailed: .unknown
                default: error.closeCode == nil ? .unknown : .badServerResponse
                }
            let closed = error.closeCode.map { "; the client closed the WebSocket with \($0)" } ?? ""
            return URLError(code, "\(error)\(closed)", url: url)
        case let error as CurlWebSocketConnectionError:
            let code: URLError.Code =
                switch error {
                case .unsupportedURL: .unsupportedURL
                case .connectionEndedDuringHandshake: .networkConnectionLost
                case .responseHeadTooLarge: .dataLengthExceedsMaximum
                case .handshakeTimedOut, .idleTimedOut: .timedOut
                case .malformedStatusLine: .badServerResponse
                case .eventLoopUnavailable: .cancelled
                case .receiveInProgress: .unknown
                }
            return URLError(code, error.description, url: url)
        case let error as WebSocketHandshakeError:
            switch error {
            case .protocolNotAToken, .protocolRepeated:
                return RequestError.invalidHeader(name: "Sec-WebSocket-Protocol", reason: error.description)
            case .deflateWindowBitsOutOfRange:
                return RequestError.invalidHeader(name: "Sec-WebSocket-Extensions", reason: error.description)
            default:
                return URLError(.badServerResponse, error.description, url: url)
            }
        case is CancellationError:
            return URLError(.cancelled, "the WebSocket handshake was cancelled", url: url)
        case let error as CurlError:
            return error.urlError(code: CurlError.urlErrorCode(curlCode: error.curlCode, osErrno: 0), url: url)
        default:
            return error
        }
    }
}
#endif
