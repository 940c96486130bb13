#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that sends a request again, by `policy`, when an attempt failed in a way the next
/// may not, waiting a backoff (or the server's `Retry-After`) before each retry.
///
/// It sits outside the redirect layer, so an attempt is a whole redirect chain and a retry starts
/// again from the request as the caller made it; and inside the total deadline, so the deadline
/// bounds the attempts and the waits between them, and cuts a wait short.
///
/// What the caller gets is the last attempt's: the response that was not retried, or the one
/// that ran out of attempts, with the earlier attempts in ``ExchangeMetrics/attempts`` (on an
/// ``HTTPExchange``'s head); or the last error, whose description ends with how many attempts
/// were made ("…, after 3 attempts"). A task cancelled while the layer waits stops at once with
/// `URLError(.cancelled)`.
///
/// The `RetryPolicy.requestField` field is removed from every request, retried or not, so
/// that it never reaches a server.
///
/// ```swift
/// let networking = layered(transport.engine, [describingErrors(), retrying(.standard), followingRedirects()])
/// ```
package func retrying(_ policy: RetryPolicy = .standard) -> NetworkingLayer {
    buffered(retryLayer(policy))
}

/// The retry layer, drawing its jitter from `random` and waiting with `sleep`, so that a test
/// decides both.
package func retrying(
    _ policy: RetryPolicy,
    random: @escaping @Sendable () -> Double,
    sleep: @escaping @Sendable (Duration) async throws -> Void
) -> NetworkingLayer {
    buffered(retryLayer(policy, random: random, sleep: sleep))
}

extension StreamingLayers {
    /// Retries (``Policies/retries``) for a streamed body. A retry is decided on the head, before
    /// the body is handed on: on a failed connection or a retryable status, whose body is dropped
    /// unread (which cancels its transfer). Once a body has been handed to the caller, nothing is
    /// retried. A streamed ``RequestBody`` (``RequestBody/isReplayable`` false) is never retried.
    package static func retrying(_ policy: RetryPolicy = .standard) -> StreamingNetworkingLayer {
        retryLayer(policy)
    }
}

/// The retry layer over either kind of body.
func retryLayer<Body: ExchangeBody, Head: ExchangeHead>(
    _ policy: RetryPolicy,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
) -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            var request = request
            let permission = request.removingRetryPermission()
            guard policy.isEnabled, permission != .never,
                  permission == .always || policy.retries(method: request.httpMethod ?? "GET"),
                  // A body read once is gone: sending it again would send nothing, or half.
                  request.httpBodyStream == nil, upload?.isReplayable != false
            else { return try await send(request, upload) }
            return try await sendRetrying(request, upload, policy: policy, random: random, sleep: sleep, send: send)
        }
    }
}

/// The attempts of one request that may be retried. A function of its own, so that the frame
/// of its loop (attempts, errors, heads of earlier attempts: several KiB) is allocated only for
/// such requests, not for every request in flight that passes through the layer.
private func sendRetrying<Body: ExchangeBody, Head: ExchangeHead>(
    _ request: URLRequest, _ upload: RequestBody?, policy: RetryPolicy, random: @Sendable () -> Double,
    sleep: @Sendable (Duration) async throws -> Void, send: Exchange<Body, Head>
) async throws -> (Body, Head) {
    let clock = ContinuousClock()
    let start = clock.now
    var attempts: [ExchangeAttempt] = []
    while true {
        let number = attempts.count + 1
        let began = clock.now
        var attempt: ExchangeAttempt
        let wait: TimeInterval
        do {
            let (body, response) = try await send(request, upload)
            guard let statusCode = response.httpStatusCode,
                  let delay = policy.delay(
                      afterStatus: statusCode, retryAfter: response.fieldValue("Retry-After"), attempt: number,
                      elapsed: (clock.now - start).timeInterval, random: random(), now: Date()
                  )
            else {
                return attempts.isEmpty ? (body, response) : (body.retried(after: attempts), response.retried(after: attempts))
            }
            // The body is dropped here; one still arriving is cancelled with it.
            attempt = ExchangeAttempt(statusCode: statusCode, duration: clock.now - began, delay: .zero, metrics: response.hopMetrics)
            wait = delay
        } catch let error as URLError {
            guard let delay = policy.delay(
                afterFailure: error.code, attempt: number, elapsed: (clock.now - start).timeInterval, random: random()
            ) else {
                // What the engine measured of the last attempt, after the attempts before it.
                throw attempts.isEmpty ? error : error.afterAttempts(number, for: request).changingMetrics { $0.attempts = attempts }
            }
            attempt = ExchangeAttempt(
                errorCode: error.code, duration: clock.now - began, delay: .zero, metrics: error.exchangeMetrics
            )
            wait = delay
        }
        let pause = Duration.milliseconds(Int64((wait.boundedPause * 1000).rounded(.up)))
        attempt.delay = pause
        attempts.append(attempt)
        do {
            try await sleep(pause)
        } catch {
            throw URLError(
                .cancelled,
                "the request was cancelled while waiting \(pause.formattedSeconds) before attempt \(number + 1)",
                url: request.url
            )
        }
        try Task.checkCancellation(url: request.url)
    }
}

/// What a request's ``RetryPolicy/requestField`` asks for.
enum RetryPermission {
    case always
    case never
}

extension URLRequest {
    /// Removes ``RetryPolicy/requestField`` and returns what it asked for; nil for no field or
    /// a value that is neither `always` nor `never`.
    mutating func removingRetryPermission() -> RetryPermission? {
        guard let value = value(forHTTPHeaderField: RetryPolicy.requestField) else { return nil }
        setValue(nil, forHTTPHeaderField: RetryPolicy.requestField)
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "always": return .always
        case "never": return .never
        default: return nil
        }
    }

    /// This request without ``RetryPolicy/requestField``. Its names are compared as bytes, so
    /// that a request without the field, nearly every one, is neither copied nor looked up
    /// through Foundation, which lowercases every name it compares.
    func withoutRetryField() -> URLRequest {
        guard let fields = allHTTPHeaderFields,
              fields.keys.contains(where: { HeaderName.equal($0, RetryPolicy.requestField) })
        else { return self }
        var request = self
        request.setValue(nil, forHTTPHeaderField: RetryPolicy.requestField)
        return request
    }
}

extension URLError {
    /// Where ``afterAttempts(_:for:)`` keeps the number of attempts.
    static let attemptsKey = "CourierAttempts"

    /// How many attempts were made before this error, when the retry layer made more than one.
    package var attemptCount: Int? {
        userInfo[Self.attemptsKey] as? Int
    }

    /// This error, described as the error-description layer would, with the number of attempts made
    /// added to what happened.
    func afterAttempts(_ count: Int, for request: URLRequest) -> URLError {
        let described = described(for: request)
        let what = "\(described.whatHappened), after \(count) attempts"
        let url = described.failingURL ?? request.url
        var info = described.userInfo
        info[NSLocalizedDescriptionKey] = "\(what) (\(request.httpMethod ?? "GET") \(url?.redactedString ?? "no URL"))"
        info[Self.describedKey] = what
        info[Self.attemptsKey] = count
        return URLError(code, userInfo: info)
    }
}

extension TimeInterval {
    /// This wait as one a task can sleep: 0 for NaN or less, at most
    /// `URLRequest.maximumTimeoutInterval`.
    fileprivate var boundedPause: TimeInterval {
        isNaN ? 0 : Swift.min(Swift.max(self, 0), URLRequest.maximumTimeoutInterval)
    }
}

extension Duration {
    /// This duration in seconds.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
