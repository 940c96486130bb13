#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation

/// The events of a stream that is opened again when it ends, as the WHATWG `EventSource`
/// reconnects, made by ``Courier/APIClient/events(_:maximumEventBytes:reconnecting:deadline:)``.
///
/// Nothing is sent until the sequence is iterated; each iteration opens the stream anew. When a
/// stream ends, cleanly or with a failure its ``/Courier/RetryPolicy`` retries (a lost connection,
/// a timeout, a retryable status), the request is sent again with `Last-Event-ID` set to the last
/// event ID seen, so the server can go on after it. Events flow as one sequence across
/// reconnections, and one the stream ended in the middle of is never returned.
///
/// The wait before a reconnection is the server's `retry` time after a stream that ended
/// cleanly, and otherwise the policy's backoff (never shorter than the server's `retry` time).
/// A 429 or 503 with `Retry-After` waits what it asks instead of the backoff, as the retry
/// policy does; one that asks past ``/Courier/RetryPolicy/maximumRetryAfter`` ends the sequence
/// with that response's error.
/// ``/Courier/RetryPolicy/maximumAttempts`` bounds the connections in a row that deliver no event,
/// the one before them included, so `maximumAttempts: 1` never reconnects; a connection that
/// delivers an event starts the count again. ``/Courier/RetryPolicy/maximumRetryTime`` bounds the
/// time since the last event after which a reconnection is still begun.
///
/// The sequence ends on a 204 No Content, which tells an `EventSource` to stop, and when the
/// attempts run out after a clean end. It throws, without reconnecting, on a status that is
/// neither acceptable nor retryable, a response that is not an event stream,
/// ``ServerSentEventsError``, a method the policy does not retry, or cancellation; and the last
/// failure once the attempts run out. With a deadline, a `URLError(.timedOut)` naming it is
/// thrown once it passes, whether a stream is being read or a wait would end past it.
/// Cancelling the task that iterates stops the stream and any wait at once; no task is left
/// running.
public struct ReconnectingServerSentEvents: AsyncSequence, Sendable {
    private let client: APIClient
    private let request: Request<ResponseBody>

    private let maximumEventBytes: Int
    private let policy: RetryPolicy
    /// Seconds the whole sequence may take, reconnections and waits included.
    private let deadline: TimeInterval?
    private let random: @Sendable () -> Double
    private let sleep: @Sendable (Duration) async throws -> Void

    /// The events of `request` sent by `client`, drawing the policy's jitter from `random` and
    /// waiting with `sleep`, so that a test decides both.
    package init(
        client: APIClient,
        request: Request<ResponseBody>,
        maximumEventBytes: Int,
        policy: RetryPolicy,
        deadline: TimeInterval?,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.client = client
        self.request = request
        self.maximumEventBytes = Swift.max(1, maximumEventBytes)
        self.policy = policy
        self.deadline = deadline
        self.random = random
        self.sleep = sleep
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }

    /// Reads the events, opening the stream again as the policy says.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private let sequence: ReconnectingServerSentEvents
        private let clock = ContinuousClock()
        /// Set when the first stream is opened.
        private var deadline: ContinuousClock.Instant?
        /// The events of the stream being read, `nil` between streams.
        private var current: ServerSentEvents.AsyncIterator?
        /// Carried from one stream to the next for its last event ID and reconnection time.
        private var parser: ServerSentEventParser
        /// The streams opened since the last event, the one that delivered it counted as the
        /// first: the policy's attempt number.
        private var attempts = 0
        /// When the attempts counted in ``attempts`` began, for ``RetryPolicy/maximumRetryTime``.
        private var attemptsStart: ContinuousClock.Instant?
        private var isFinished = false

        fileprivate init(sequence: ReconnectingServerSentEvents) {
            self.sequence = sequence
            parser = ServerSentEventParser(maximumEventBytes: sequence.maximumEventBytes)
        }

        public mutating func next() async throws -> ServerSentEvent? {
            while !isFinished {
                guard var events = current else {
                    try await open()
                    continue
                }
                do {
                    if let event = try await events.next() {
                        current = events
                        attempts = 1
                        attemptsStart = clock.now
                        return event
                    }
                    parser = events.currentParser
                    current = nil
                    try await reconnect(after: nil)
                } catch let error as ServerSentEventsError {
                    current = nil
                    isFinished = true
                    throw error
                } catch {
                    parser = events.currentParser
                    parser.finish()
                    current = nil
                    try await reconnect(after: error)
                }
            }
            return nil
        }

        /// Sends the request, with `Last-Event-ID` once an ID was seen, and starts reading its
        /// events; a failure goes to ``reconnect(after:)``.
        private mutating func open() async throws {
            let now = clock.now
            if deadline == nil, let seconds = sequence.deadline, seconds >= 0, seconds <= URLRequest.maximumTimeoutInterval {
                deadline = now + .milliseconds(Int64((seconds * 1000).rounded(.up)))
            }
            if attempts == 0 { attemptsStart = now }
            attempts += 1
            var request = sequence.request
            for name in request.headers.keys where name.caseInsensitiveCompare(Self.lastEventIDField) == .orderedSame {
                request.headers[name] = nil
            }
            if !parser.lastEventID.isEmpty { request.headers[Self.lastEventIDField] = parser.lastEventID }
            var client = sequence.client
            // The deadline ends a stream still arriving too, through the same layer as a
            // client's total deadline; a client with no streaming path checks it between streams.
            if let deadline, let streaming = client.streaming {
                let remaining = deadline - now
                guard remaining > .zero else { throw finish(with: deadlineError()) }
                client.streaming = StreamingLayers.totalDeadline(remaining.seconds)(streaming)
            }
            do throws(APIError) {
                let (body, head) = try await client.sendForEvents(request)
                if head.statusCode == 204 {
                    isFinished = true
                    return
                }
                try await client.requireEventStream(body, head, for: request)
                current = ServerSentEvents.AsyncIterator(chunks: body.makeAsyncIterator(), parser: parser)
            } catch {
                if error.kind.isDecoding { throw finish(with: error) }
                try await reconnect(after: error)
            }
        }

        /// Decides what follows a stream that ended, cleanly (`error` nil) or with `error`:
        /// returns after the wait before the next stream, or ends the sequence, or throws.
        private mutating func reconnect(after error: (any Error)?) async throws {
            if let deadline, clock.now >= deadline { throw finish(with: deadlineError()) }
            if let error {
                guard !Task.isCancelled, isRetryable(error) else { throw finish(with: error) }
            }
            try checkCancellation()
            let policy = sequence.policy
            let method = (try? sequence.client.urlRequest(for: sequence.request).httpMethod) ?? "GET"
            guard policy.isEnabled, policy.retries(method: method), attempts < policy.maximumAttempts else {
                isFinished = true
                if let error { throw error }
                return
            }
            let backoff = policy.backoff(beforeRetry: attempts, random: sequence.random())
            let asked = parser.reconnectionTime.map(\.seconds)
            var seconds = error == nil ? (asked ?? backoff) : Swift.max(asked ?? 0, backoff)
            if let retryAfter = error.flatMap(retryAfterSeconds) {
                // As the retry layer treats it: the server's wait replaces the backoff, and one
                // past the policy's bound makes this response the answer.
                guard retryAfter <= policy.maximumRetryAfter else {
                    isFinished = true
                    if let error { throw error }
                    return
                }
                seconds = Swift.max(asked ?? 0, retryAfter)
            }
            let wait = Duration.milliseconds(Int64((Swift.min(seconds, URLRequest.maximumTimeoutInterval) * 1000).rounded(.up)))
            if let deadline, clock.now + wait > deadline { throw finish(with: deadlineError()) }
            if let limit = policy.maximumRetryTime, let attemptsStart, (clock.now + wait - attemptsStart).seconds > limit {
                isFinished = true
                if let error { throw error }
                return
            }
            do {
                try await sequence.sleep(wait)
            } catch {
                throw finish(with: URLError(
                    .cancelled, "the event stream was cancelled while waiting \(wait.formattedSeconds) before reconnecting",
                    url: url
                ))
            }
            try checkCancellation()
        }

        /// The seconds a 429 or 503 asked for in `Retry-After` (RFC 9110 §10.2.3), if any.
        private func retryAfterSeconds(_ error: any Error) -> TimeInterval? {
            guard let error = error as? APIError, let head = error.head, head.statusCode == 429 || head.statusCode == 503,
                  let value = head.value(forHTTPHeaderField: "Retry-After")
            else { return nil }
            return RetryAfter.seconds(in: value, now: Date())
        }

        /// Whether the policy retries a stream that failed with `error`.
        private func isRetryable(_ error: any Error) -> Bool {
            let policy = sequence.policy
            switch error {
            case let error as APIError:
                if case .transport(let underlying) = error.kind { return isRetryable(underlying) }
                return error.statusCode.map(policy.retryableStatusCodes.contains) ?? false
            case let error as URLError:
                return policy.retryableErrorCodes.contains(error.code)
            default:
                return false
            }
        }

        private mutating func checkCancellation() throws {
            if Task.isCancelled {
                throw finish(with: URLError(.cancelled, "the event stream was cancelled before reconnecting", url: url))
            }
        }

        /// Ends the sequence; returns `error` to throw.
        private mutating func finish<E: Error>(with error: E) -> E {
            isFinished = true
            current = nil
            return error
        }

        private func deadlineError() -> URLError {
            let seconds = sequence.deadline ?? 0
            return URLError(.timedOut, "the event stream's deadline of \(seconds.formattedSeconds) passed", url: url)
        }

        private var url: URL? {
            try? sequence.client.urlRequest(for: sequence.request).url
        }

        private static let lastEventIDField = "Last-Event-ID"
    }
}

extension APIError.Kind {
    /// A response that came but is not an event stream: sending again would get the same.
    fileprivate var isDecoding: Bool {
        if case .decoding = self { true } else { false }
    }
}

extension Duration {
    /// This duration in seconds, as ``/Courier/RetryPolicy`` counts them.
    fileprivate var seconds: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
