#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Receives every task's events and hands them to the task's ``Exchange``.
    ///
    /// - Redirects are never followed here: the 3xx becomes the task's response, and
    ///   the redirect layer (``Policies/redirects``) above the engine decides.
    /// - Bodies are counted as they arrive, decoded; past their exchange's limit
    ///   (``Policies/maximumResponseBytes``, none for a download into a file) the caller gets
    ///   the error at once, the task is cancelled and what it kept is dropped. A declared
    ///   `Content-Length` over the limit (for a body without content coding) or a header block
    ///   over ``Policies/maximumHeaderBytes`` is refused at the response.
    /// - A request's idle timeout with a fraction of a second is kept here (``IdleTimeout``).
    /// - With ``Configuration/ContentDecoding/identityOnly``, an encoded response is refused at
    ///   its head.
    /// - A `401` carrying `WWW-Authenticate` never completes its task in FoundationNetworking
    ///   when the challenge is handled by default; here the challenge is rejected and its
    ///   `failureResponse` kept, so the caller gets the 401 response (its headers;
    ///   FoundationNetworking discards the body) instead of waiting forever.
    final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // @unchecked: the only state is behind the Locked below; NSObject itself is not Sendable.
        private let exchanges = Locked<[Int: Entry]>([:])
        /// The queue the delegate's operations run on; kept here because an `OperationQueue`
        /// does not keep its `underlyingQueue`, and the session keeps its delegate.
        let queue = DispatchQueue(label: "Courier.URLSessionTransport.delegate")
        /// The most bytes of a body kept in memory.
        let maximumResponseBytes: Int
        private let maximumHeaderBytes: Int
        /// The most bytes of a streamed body that may wait for their reader.
        let maximumUnreadBytes: Int

        private struct Entry {
            var exchange: Exchange
            var challenged: HTTPURLResponse?
            /// The idle timeout FoundationNetworking cannot keep itself, if the request has one.
            var idleTimeout: IdleTimeout?
        }

        /// Whether the session became invalid, and who waits for that, by number.
        private enum Invalidation {
            case valid(waiters: [Int: CheckedContinuation<Void, Never>], next: Int)
            case invalid
        }
        private let invalidationState = Locked(Invalidation.valid(waiters: [:], next: 0))

        private let decodesContent: Bool

        init(configuration: Configuration) {
            maximumResponseBytes = max(0, configuration.policies.maximumResponseBytes)
            maximumHeaderBytes = max(0, configuration.policies.maximumHeaderBytes)
            maximumUnreadBytes = max(1, configuration.maximumUnreadBytes)
            decodesContent = configuration.contentDecoding == .all
        }

        /// Hands `task`'s events to `exchange` from now on; each restarts `idleTimeout`, which
        /// is cancelled when the task ends.
        func register(_ exchange: Exchange, for task: URLSessionTask, idleTimeout: IdleTimeout?) {
            exchanges.withLock { $0[task.taskIdentifier] = Entry(exchange: exchange, idleTimeout: idleTimeout) }
        }

        /// Stops every exchange in flight with the error `error` makes for its URL.
        func stopAll(with error: (URL?) -> URLError) {
            let exchanges = exchanges.withLock { $0.values.map(\.exchange) }
            for exchange in exchanges {
                exchange.stop(with: error(exchange.request.url))
            }
        }

        /// Returns once the session is invalid and every task has reported its end, or once
        /// `limit` has passed, whichever comes first.
        func invalidation(within limit: Duration) async {
            await withCheckedContinuation { continuation in
                let waiter = invalidationState.withLock { state -> Int? in
                    guard case .valid(var waiters, let next) = state else { return nil }
                    waiters[next] = continuation
                    state = .valid(waiters: waiters, next: next + 1)
                    return next
                }
                guard let waiter else { return continuation.resume() }
                let wait = DispatchTimeInterval.nanoseconds(Int(limit.components.seconds) * 1_000_000_000 + Int(limit.components.attoseconds / 1_000_000_000))
                URLSessionTransport.timerQueue.asyncAfter(deadline: .now() + wait) { [invalidationState] in
                    let expired = invalidationState.withLock { state -> CheckedContinuation<Void, Never>? in
                        guard case .valid(var waiters, let next) = state, let continuation = waiters.removeValue(forKey: waiter) else {
                            return nil
                        }
                        state = .valid(waiters: waiters, next: next)
                        return continuation
                    }
                    expired?.resume()
                }
            }
        }

        /// FoundationNetworking forgets the delegate right after this call, so an exchange whose
        /// task has not reported its end by now never would: each ends here, with the error it
        /// was stopped with (``stopAll(with:)``) or `URLError(.cancelled)`.
        func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
            let left = exchanges.withLock { exchanges in
                defer { exchanges = [:] }
                return Array(exchanges.values)
            }
            for entry in left {
                entry.idleTimeout?.cancel()
                entry.exchange.complete(
                    data: nil, response: nil, error: URLSessionTransport.shutDownError(url: entry.exchange.request.url),
                    challenged: entry.challenged
                )
            }
            let waiters = invalidationState.withLock { state -> [CheckedContinuation<Void, Never>] in
                defer { state = .invalid }
                guard case .valid(let waiters, _) = state else { return [] }
                return Array(waiters.values)
            }
            for waiter in waiters { waiter.resume() }
        }

        /// The exchange `task` reports to, after restarting its idle clock: every event is
        /// activity on the wire.
        private func exchange(for task: URLSessionTask) -> Exchange? {
            let entry = exchanges.withLock { $0[task.taskIdentifier] }
            entry?.idleTimeout?.touch()
            return entry?.exchange
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest,
            completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
        }

        func urlSession(
            _ session: URLSession,
            dataTask: URLSessionDataTask,
            didReceive response: URLResponse,
            completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
        ) {
            // FoundationNetworking ignores the disposition and goes on receiving: the refusal
            // must cancel the task itself, and reaches the caller at once.
            if let http = response as? HTTPURLResponse, let exchange = exchange(for: dataTask),
               let refusal = refusal(of: http, bodyLimit: exchange.bodyLimit) {
                exchange.stop(with: URLError(refusal.code, refusal.message, url: http.url ?? exchange.request.url))
                completionHandler(.cancel)
                return
            }
            exchange(for: dataTask)?.receive(response)
            completionHandler(.allow)
        }

        private func refusal(of response: HTTPURLResponse, bodyLimit: Int) -> (code: URLError.Code, message: String)? {
            var headerBytes = 0
            var coding: String?
            for (key, value) in response.allHeaderFields {
                guard let name = key as? String, let value = value as? String else { continue }
                headerBytes += name.utf8.count + value.utf8.count + 4
                if name.caseInsensitiveCompare("Content-Encoding") == .orderedSame, value.lowercased() != "identity" {
                    coding = value
                }
            }
            if headerBytes > maximumHeaderBytes {
                return (.dataLengthExceedsMaximum, "the response headers exceed the limit of \(maximumHeaderBytes) bytes (Policies.maximumHeaderBytes)")
            }
            if let coding, !decodesContent {
                return (
                    .cannotDecodeContentData,
                    "the response is \(coding)-encoded, and this engine decodes no content coding it cannot bound (URLSessionTransport.Configuration.contentDecoding is .identityOnly)"
                )
            }
            let encoded = coding != nil
            if !encoded, response.expectedContentLength > Int64(bodyLimit) {
                return (
                    .dataLengthExceedsMaximum,
                    "the declared body of \(response.expectedContentLength) bytes exceeds the limit of \(bodyLimit) bytes (Policies.maximumResponseBytes)"
                )
            }
            return nil
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            exchange(for: dataTask)?.append(data)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
            totalBytesExpectedToSend: Int64
        ) {
            exchange(for: task)?.sent(totalBytesSent)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            guard let entry = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
            entry.idleTimeout?.cancel()
            entry.exchange.complete(data: nil, response: task.response, error: error, challenged: entry.challenged)
        }

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Only HTTP authentication challenges carry a failure response; TLS ones keep the
            // default handling (certificate validation).
            if let response = challenge.failureResponse as? HTTPURLResponse,
               response.statusCode == 401 || response.statusCode == 407 {
                exchanges.withLock { $0[task.taskIdentifier]?.challenged = response }
                completionHandler(.rejectProtectionSpace, nil)
            } else {
                completionHandler(.performDefaultHandling, nil)
            }
        }
    }
}
