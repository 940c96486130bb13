#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Which failed exchanges the retry layer (``Policies/retries``) sends again, and how long it waits before each.
///
/// A request is tried again when its attempt failed in a way another attempt may not:
/// - a transient transport failure (``retryableErrorCodes``: the connection refused, reset,
///   lost or closed before an answer, a timeout, a host name that did not resolve), or
/// - a response whose status says "try later" (``retryableStatusCodes``: 408, 429, 500, 502,
///   503 and 504 by default).
///
/// Only idempotent methods are retried (RFC 9110 §9.2.2: GET, HEAD, OPTIONS, TRACE, PUT,
/// DELETE), since a POST that failed after it reached the server may have had its effect;
/// ``retriesAnyMethod`` or a request's ``Request/retryingAnyMethod()`` opts in. A body that cannot be sent
/// twice (`httpBodyStream`, a streamed ``RequestBody``) is never retried.
///
/// Before each retry the layer waits an exponential backoff, `initialDelay × multiplierⁿ` capped
/// at ``maximumDelay``, of which a ``jitter`` fraction is drawn at random so that clients that
/// failed together do not come back together. On 429 and 503, a `Retry-After` field (seconds
/// or an HTTP-date, RFC 9110 §10.2.3) replaces the backoff when it is no longer than
/// ``maximumRetryAfter``; a longer one ends the retries and the response is returned as it is.
/// ``maximumAttempts`` bounds the attempts, ``maximumRetryTime`` the time spent retrying, and
/// ``Policies/totalDeadline`` the whole call, waits included.
///
/// ```swift
/// var policies = Policies()
/// policies.retries = .standard
/// policies.retries.retryableStatusCodes.remove(500)
/// ```
public struct RetryPolicy: Sendable, Equatable {
    /// The methods RFC 9110 §9.2.2 defines as idempotent, which are retried without opting in.
    package static let idempotentMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"]

    /// 408 Request Timeout, 429 Too Many Requests, 500, 502, 503 and 504: the statuses curl's
    /// `--retry` retries.
    public static let defaultStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]

    /// Failures another attempt may not meet: the connection refused (`cannotConnectToHost`),
    /// reset or lost (`networkConnectionLost`), closed before any answer (`badServerResponse`,
    /// libcurl's "empty reply from server" under both engines), a timeout, a host name that did
    /// not resolve and no network at all. Alamofire's default list has each of them.
    public static let defaultErrorCodes: Set<URLError.Code> = [
        .timedOut, .cannotConnectToHost, .networkConnectionLost, .badServerResponse, .cannotFindHost, .dnsLookupFailed,
        .notConnectedToInternet,
    ]

    /// The request header field by which one request opts in or out, whatever the policy says:
    /// `Courier-Retry: always` retries it whatever its method, `Courier-Retry: never` does not
    /// retry it at all. The field is removed before the request is sent, whether retries are on
    /// or not (while they are off, by the redirect layer, which stands in for the retry layer). ``Request/retryingAnyMethod()`` and ``Request/notRetrying()`` set it.
    package static let requestField = "Courier-Retry"

    /// The most attempts for one request, the first included; 1 (the default) or less means no
    /// retries.
    public var maximumAttempts: Int
    /// The wait before the first retry, in seconds, before jitter.
    public var initialDelay: TimeInterval
    /// What each wait is multiplied by for the next retry; 1 waits the same every time.
    public var multiplier: Double
    /// The longest wait between two attempts, in seconds, before jitter.
    public var maximumDelay: TimeInterval
    /// The fraction of each wait drawn at random, from 0 (every wait exactly as computed) to 1
    /// (anywhere between 0 and the computed wait, "full jitter"). Values outside are clamped.
    public var jitter: Double
    /// How long retrying may go on, in seconds from the start of the first attempt: no retry
    /// whose wait would end later is begun, and the last outcome is returned instead. `nil`
    /// for no bound beyond ``maximumAttempts``. ``Policies/totalDeadline`` bounds the whole
    /// call, attempts and waits included, and cuts a wait short.
    public var maximumRetryTime: TimeInterval?
    /// The response statuses that are retried.
    public var retryableStatusCodes: Set<Int>
    /// The transport failures that are retried.
    public var retryableErrorCodes: Set<URLError.Code>
    /// The longest `Retry-After` that is waited for, in seconds. A 429 or 503 that asks for a
    /// longer wait is returned as it is, at once.
    public var maximumRetryAfter: TimeInterval
    /// Retry every method, not only the idempotent ones. Default `false`.
    public var retriesAnyMethod: Bool

    /// A policy with the given values; by default one that never retries, with the waits of
    /// ``standard`` ready for when ``maximumAttempts`` is raised.
    public init(
        maximumAttempts: Int = 1,
        initialDelay: TimeInterval = 0.5,
        multiplier: Double = 2,
        maximumDelay: TimeInterval = 30,
        jitter: Double = 0.5,
        maximumRetryTime: TimeInterval? = nil,
        retryableStatusCodes: Set<Int> = RetryPolicy.defaultStatusCodes,
        retryableErrorCodes: Set<URLError.Code> = RetryPolicy.defaultErrorCodes,
        maximumRetryAfter: TimeInterval = 60,
        retriesAnyMethod: Bool = false
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.maximumRetryTime = maximumRetryTime
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableErrorCodes = retryableErrorCodes
        self.maximumRetryAfter = maximumRetryAfter
        self.retriesAnyMethod = retriesAnyMethod
    }

    /// No retries: every request is sent once. The default of ``Policies/retries``.
    public static let none = RetryPolicy()

    /// What a user of Alamofire's `RetryPolicy()` expects: 3 attempts (2 retries) of idempotent
    /// requests, the first retry after 0.25–0.5 s and the second after 0.5–1 s (Alamofire's
    /// 0.5 s and 1 s, less up to half at random), on the default statuses (Alamofire's and 429)
    /// and transient failures, honouring a `Retry-After` of up to 60 s.
    public static let standard = RetryPolicy(maximumAttempts: 3)

    /// Whether this policy retries at all.
    package var isEnabled: Bool { maximumAttempts > 1 }

    /// Whether a request with `method` is retried without opting in.
    package func retries(method: String) -> Bool {
        retriesAnyMethod || Self.idempotentMethods.contains(method.uppercased())
    }

    /// The wait before retry number `retry` (1 before the second attempt), in seconds:
    /// `initialDelay × multiplier^(retry - 1)`, capped at ``maximumDelay``, less the
    /// ``jitter`` fraction of it times `random` (in `0..<1`).
    package func backoff(beforeRetry retry: Int, random: Double) -> TimeInterval {
        let base = Self.finiteNonNegative(initialDelay)
        let cap = Self.finiteNonNegative(maximumDelay)
        let growth = pow(max(Self.finiteNonNegative(multiplier), 1), Double(max(retry - 1, 0)))
        let computed = min(base * growth, cap)
        let fraction = min(max(jitter.isNaN ? 0 : jitter, 0), 1)
        let unit = min(max(random.isNaN ? 0 : random, 0), 1)
        return Self.finiteNonNegative(computed * (1 - fraction * unit))
    }

    /// How long to wait before trying again after attempt number `attempt` answered with
    /// `statusCode` and `retryAfter` (the field's value), `elapsed` seconds after the first
    /// began; `nil` when the response is the answer.
    func delay(
        afterStatus statusCode: Int, retryAfter: String?, attempt: Int, elapsed: TimeInterval, random: Double, now: Date
    ) -> TimeInterval? {
        guard attempt < maximumAttempts, retryableStatusCodes.contains(statusCode) else { return nil }
        if statusCode == 429 || statusCode == 503, let retryAfter, let asked = RetryAfter.seconds(in: retryAfter, now: now) {
            guard asked <= maximumRetryAfter else { return nil }
            return withinRetryTime(asked, elapsed: elapsed)
        }
        return withinRetryTime(backoff(beforeRetry: attempt, random: random), elapsed: elapsed)
    }

    /// How long to wait before trying again after attempt number `attempt` failed with `code`;
    /// `nil` when the failure is the answer.
    func delay(afterFailure code: URLError.Code, attempt: Int, elapsed: TimeInterval, random: Double) -> TimeInterval? {
        guard attempt < maximumAttempts, retryableErrorCodes.contains(code) else { return nil }
        return withinRetryTime(backoff(beforeRetry: attempt, random: random), elapsed: elapsed)
    }

    private func withinRetryTime(_ delay: TimeInterval, elapsed: TimeInterval) -> TimeInterval? {
        guard let maximumRetryTime, maximumRetryTime.isFinite else { return delay }
        return elapsed + delay <= maximumRetryTime ? delay : nil
    }

    private static func finiteNonNegative(_ value: Double) -> Double {
        value.isNaN || value < 0 ? 0 : min(value, URLRequest.maximumTimeoutInterval)
    }
}

/// The `Retry-After` field of RFC 9110 §10.2.3: `delay-seconds` or an `HTTP-date`.
package enum RetryAfter {
    /// The seconds `value` asks the client to wait from `now`; 0 for a date in the past, `nil`
    /// for a value that is neither form.
    package static func seconds(in value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // A run of digits too long for an Int is still a number of seconds: a very long one.
            return Int(trimmed).map(TimeInterval.init) ?? .infinity
        }
        // The cookie-date algorithm reads all three HTTP-date forms (IMF-fixdate, RFC 850 and
        // asctime), which §5.6.7 asks a recipient to accept.
        guard let date = CookieDate.parse(trimmed) else { return nil }
        return max(date.timeIntervalSince(now), 0)
    }
}
