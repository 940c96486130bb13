#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

/// The ``Networking`` transport backed by `URLSession` (FoundationNetworking on Linux).
///
/// The session is configured explicitly so that results depend only on the request and the
/// server, never on state left by earlier requests: no URL cache and, unless asked for, no
/// cookie storage. That is also what lets its answers be compared with `CurlTransport`'s.
///
/// ```swift
/// let transport = URLSessionTransport()
/// let client = APIClient(baseURL: baseURL, networking: transport.networking)
/// ```
public struct URLSessionTransport: Sendable {
    /// The session requests are sent with.
    public let session: URLSession

    /// Creates a transport with a session built from `configuration`.
    ///
    /// The session's delegate repairs a FoundationNetworking defect that would otherwise hang a
    /// request answered with a `401` challenge.
    public init(configuration: Configuration = Configuration()) {
        let delegate = SessionDelegate()
        self.session = URLSession(configuration: configuration.sessionConfiguration(), delegate: delegate, delegateQueue: nil)
        self.delegate = delegate
    }

    /// Wraps an existing session as it is, caches, cookies and delegate included.
    ///
    /// - Warning: On Linux, a session without Courier's delegate never completes a request
    ///   answered with `401` and `WWW-Authenticate` unless its own delegate handles the challenge.
    public init(session: URLSession) {
        self.session = session
        self.delegate = nil
    }

    private let delegate: SessionDelegate?

    /// Sends `request` and returns the body and response; any HTTP status is a response.
    ///
    /// - Throws: ``RequestError`` for a request with a malformed method or header (nothing is
    ///   sent); `URLError` for failures on the wire, `URLError(.cancelled)` when the calling task
    ///   is cancelled.
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try request.validateForSending()
        return try await session.courierData(for: request, delegate: delegate)
    }

    /// This transport as a ``Networking`` value.
    public var networking: Networking {
        { request in try await data(for: request) }
    }
}

extension URLSession {
    /// `data(for:)` as a ``Networking`` value, with Courier's request validation in front.
    ///
    /// An unapplied `session.data(for:)` does not convert to ``Networking`` on Linux, where the
    /// method has a defaulted `delegate:` parameter; use this property instead.
    public var networking: Networking {
        { request in
            try request.validateForSending()
            return try await self.courierData(for: request, delegate: self.delegate as? URLSessionTransport.SessionDelegate)
        }
    }

    /// A data task bridged to async/await with cancellation that reaches the task.
    ///
    /// FoundationNetworking's own `data(for:)` has differed across releases in how (and whether)
    /// Task cancellation stops the transfer; owning the bridge makes it `URLError(.cancelled)`
    /// promptly on every platform.
    func courierData(
        for request: URLRequest,
        delegate: URLSessionTransport.SessionDelegate?
    ) async throws -> (Data, URLResponse) {
        var request = request
        if request.timeoutInterval == 0 {
            request.timeoutInterval = configuration.timeoutIntervalForRequest
        }
        if request.timeoutInterval > URLRequest.maximumTimeoutInterval {
            request.timeoutInterval = URLRequest.maximumTimeoutInterval
        }
        let state = Mutex<TaskState>(.notStarted)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let task = dataTask(with: request) { data, response, error in
                    let challenged = state.withLock { state -> HTTPURLResponse? in
                        guard case .running(let task) = state else { return nil }
                        return delegate?.takeChallengedResponse(for: task.taskIdentifier)
                    }
                    if let challenged {
                        continuation.resume(returning: (data ?? Data(), challenged))
                    } else if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let cancelled = state.withLock { state in
                    if case .cancelled = state { return true }
                    state = .running(task)
                    return false
                }
                if cancelled { task.cancel() }
                task.resume()
            }
        } onCancel: {
            let task = state.withLock { state -> URLSessionDataTask? in
                defer { state = .cancelled }
                if case .running(let task) = state { return task }
                return nil
            }
            task?.cancel()
        }
    }
}

/// What the cancellation handler may find: it can run before, during or after task creation.
private enum TaskState {
    case notStarted
    case running(URLSessionDataTask)
    case cancelled
}
