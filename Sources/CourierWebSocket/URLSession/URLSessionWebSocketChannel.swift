#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// A `URLSessionWebSocketTask` as the ``WebSocket`` every engine gives, on a session of its own
/// whose delegate reports the opening.
final class URLSessionWebSocketChannel: WebSocketChannel {
    private let task: URLSessionWebSocketTask
    private let session: URLSession
    let subprotocol: String?
    let executor: (any TaskExecutor)? = nil

    private init(task: URLSessionWebSocketTask, session: URLSession, subprotocol: String?) {
        self.task = task
        self.session = session
        self.subprotocol = subprotocol
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Sends the handshake; answers with the channel after a 101, with the head alone after
    /// any other status (the policies read it: a 401 to refresh on, cookies), or throws the
    /// task's error.
    static func open(
        _ request: URLRequest, options: WebSocket.Options, configuration: URLSessionConfiguration
    ) async throws -> (WebSocketUpgrade, ResponseHead) {
        let opening = OpeningDelegate()
        let session = URLSession(configuration: configuration, delegate: opening, delegateQueue: nil)
        let task = session.webSocketTask(with: request)
        task.maximumMessageSize = options.maximumMessageBytes
        let opened: Result<String?, any Error> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                opening.start(continuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
        guard let head = task.response.flatMap(ResponseHead.init) else {
            session.invalidateAndCancel()
            if case .failure(let error) = opened { throw error }
            throw URLError(.badServerResponse, "the WebSocket opened without an HTTP response", url: request.url)
        }
        switch opened {
        case .success(let subprotocol):
            let channel = URLSessionWebSocketChannel(task: task, session: session, subprotocol: subprotocol)
            return (WebSocketUpgrade(channel), head)
        case .failure(let error):
            session.invalidateAndCancel()
            guard head.statusCode != 101 else { throw error }
            return (WebSocketUpgrade(nil), head)
        }
    }

    func receive() async throws -> WebSocketEvent {
        do {
            switch try await task.receive() {
            case .string(let text): return .message(.string(text))
            case .data(let data): return .message(.data(data))
            @unknown default: throw URLError(.badServerResponse, "URLSession reported a kind of message Courier does not know", url: task.originalRequest?.url)
            }
        } catch {
            // URLSession reports the end of a WebSocket as a failed receive, with the close code set.
            guard task.closeCode != .invalid else { throw error }
            let reason = task.closeReason.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return .closed(WebSocket.CloseCode(rawValue: UInt16(clamping: task.closeCode.rawValue)), reason: reason)
        }
    }

    func send(_ message: WebSocket.Message) async throws {
        switch message {
        case .string(let text): try await task.send(.string(text))
        case .data(let data): try await task.send(.data(data))
        }
    }

    func ping(_ payload: [UInt8]) async throws -> Bool {
        // URLSession picks the ping's payload itself and answers through the handler.
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            task.sendPing { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
        }
        return true
    }

    func beginClose(_ code: WebSocket.CloseCode, reason: String) async throws {
        let closeCode = URLSessionWebSocketTask.CloseCode(rawValue: Int(code.rawValue)) ?? .normalClosure
        task.cancel(with: closeCode, reason: reason.isEmpty ? nil : Data(reason.utf8))
    }

    func abort() {
        task.cancel()
    }
}

/// Reports the task's opening once: its subprotocol, or the error it ended with.
private final class OpeningDelegate: NSObject, URLSessionWebSocketDelegate, @unchecked Sendable {
    // @unchecked: the continuation is guarded by the lock.
    private let waiter = Locked<CheckedContinuation<Result<String?, any Error>, Never>?>(nil)

    func start(_ continuation: CheckedContinuation<Result<String?, any Error>, Never>) {
        waiter.withLock { $0 = continuation }
    }

    private func finish(_ result: Result<String?, any Error>) {
        waiter.withLock { waiter in
            defer { waiter = nil }
            return waiter
        }?.resume(returning: result)
    }

    func urlSession(_ session: URLSession, webSocketTask: URLSessionWebSocketTask, didOpenWithProtocol protocol: String?) {
        finish(.success(`protocol`))
    }

    // The close is read from the task by `receive()`.
    func urlSession(
        _ session: URLSession, webSocketTask: URLSessionWebSocketTask, didCloseWith closeCode: URLSessionWebSocketTask.CloseCode,
        reason: Data?
    ) {}

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        finish(.failure(error ?? URLError(.networkConnectionLost, "the WebSocket ended before it opened", url: task.originalRequest?.url)))
    }
}
