#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Courier
import Foundation
import Testing

/// The retry policy's decisions as pure functions: backoff, jitter, `Retry-After` and bounds.
@Suite struct RetryPolicyTests {
    private static let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT

    @Test func theDefaultRetriesNothingAndTheStandardPresetIsAlamofiresRetryPolicy() {
        #expect(Policies().retries == .none)
        #expect(!RetryPolicy.none.isEnabled)
        #expect(RetryPolicy.standard.maximumAttempts == 3)
        #expect(RetryPolicy.standard.retryableStatusCodes == [408, 429, 500, 502, 503, 504])
        #expect(RetryPolicy.standard.backoff(beforeRetry: 1, random: 0) == 0.5)
        #expect(RetryPolicy.standard.backoff(beforeRetry: 2, random: 0) == 1)
    }

    @Test func backoffGrowsByTheMultiplierUpToTheCap() {
        let policy = RetryPolicy(maximumAttempts: 10, initialDelay: 1, multiplier: 3, maximumDelay: 20, jitter: 0)
        #expect((1...5).map { policy.backoff(beforeRetry: $0, random: 0.99) } == [1, 3, 9, 20, 20])
    }

    @Test func jitterTakesItsFractionOfTheWaitAtRandom() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 4, jitter: 0.5)
        #expect(policy.backoff(beforeRetry: 1, random: 0) == 4)
        #expect(policy.backoff(beforeRetry: 1, random: 0.5) == 3)
        #expect(policy.backoff(beforeRetry: 1, random: 1) == 2)
        var full = policy
        full.jitter = 1
        #expect(full.backoff(beforeRetry: 1, random: 0.75) == 1)
    }

    @Test func nonsenseSettingsGiveFiniteWaits() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: .nan, multiplier: .infinity, maximumDelay: -1, jitter: 7)
        #expect(policy.backoff(beforeRetry: 1_000, random: .nan) == 0)
        let huge = RetryPolicy(maximumAttempts: 3, initialDelay: 1, multiplier: 1e308, maximumDelay: .infinity, jitter: 0)
        #expect(huge.backoff(beforeRetry: 1_000, random: 0).isFinite)
    }

    @Test func onlyIdempotentMethodsAreRetriedUnlessThePolicySaysAny() {
        let policy = RetryPolicy.standard
        for method in ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE", "get"] { #expect(policy.retries(method: method), "\(method)") }
        for method in ["POST", "PATCH", "CONNECT"] { #expect(!policy.retries(method: method), "\(method)") }
        var any = policy
        any.retriesAnyMethod = true
        #expect(any.retries(method: "POST"))
    }

    @Test(arguments: [
        ("0", 0.0), ("120", 120), (" 5 ", 5),
        ("Wed, 21 Oct 2015 07:28:30 GMT", 30),  // IMF-fixdate
        ("Wednesday, 21-Oct-15 07:29:00 GMT", 60),  // RFC 850
        ("Wed Oct 21 07:28:10 2015", 10),  // asctime
        ("Tue, 20 Oct 2015 07:28:00 GMT", 0),  // in the past
    ] as [(String, TimeInterval)])
    func retryAfterIsReadInEveryFormOfRFC9110(_ value: String, _ seconds: TimeInterval) {
        #expect(RetryAfter.seconds(in: value, now: Self.now) == seconds)
    }

    @Test(arguments: ["", "soon", "-5", "1.5", "0x10", "Wed, 32 Oct 2015 07:28:30 GMT"])
    func unreadableRetryAfterIsIgnored(_ value: String) {
        #expect(RetryAfter.seconds(in: value, now: Self.now) == nil)
    }

    @Test func aDigitRunTooLongForAnIntIsAVeryLongWait() {
        #expect(RetryAfter.seconds(in: String(repeating: "9", count: 40), now: Self.now) == .infinity)
    }

    @Test func retryAfterReplacesTheBackoffOn429And503OnlyAndBeyondTheCapEndsTheRetries() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 1, jitter: 0, maximumRetryAfter: 60)
        #expect(policy.delay(afterStatus: 503, retryAfter: "7", attempt: 1, elapsed: 0, random: 0, now: Self.now) == 7)
        #expect(policy.delay(afterStatus: 429, retryAfter: "60", attempt: 1, elapsed: 0, random: 0, now: Self.now) == 60)
        #expect(policy.delay(afterStatus: 429, retryAfter: "61", attempt: 1, elapsed: 0, random: 0, now: Self.now) == nil)
        #expect(policy.delay(afterStatus: 500, retryAfter: "7", attempt: 1, elapsed: 0, random: 0, now: Self.now) == 1)
        #expect(policy.delay(afterStatus: 503, retryAfter: "later", attempt: 1, elapsed: 0, random: 0, now: Self.now) == 1)
    }

    @Test func statusesAndFailuresOutsideTheListsAndTheLastAttemptAreAnswers() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 1, jitter: 0)
        #expect(policy.delay(afterStatus: 404, retryAfter: nil, attempt: 1, elapsed: 0, random: 0, now: Self.now) == nil)
        #expect(policy.delay(afterStatus: 503, retryAfter: nil, attempt: 3, elapsed: 0, random: 0, now: Self.now) == nil)
        #expect(policy.delay(afterStatus: 503, retryAfter: nil, attempt: 2, elapsed: 0, random: 0, now: Self.now) == 2)
        #expect(policy.delay(afterFailure: .cannotConnectToHost, attempt: 1, elapsed: 0, random: 0) == 1)
        #expect(policy.delay(afterFailure: .cancelled, attempt: 1, elapsed: 0, random: 0) == nil)
        #expect(policy.delay(afterFailure: .serverCertificateUntrusted, attempt: 1, elapsed: 0, random: 0) == nil)
    }

    @Test func noRetryIsBegunWhoseWaitWouldEndPastTheRetryTime() {
        let policy = RetryPolicy(maximumAttempts: 10, initialDelay: 2, jitter: 0, maximumRetryTime: 5)
        #expect(policy.delay(afterFailure: .timedOut, attempt: 1, elapsed: 3, random: 0) == 2)
        #expect(policy.delay(afterFailure: .timedOut, attempt: 1, elapsed: 3.5, random: 0) == nil)
        #expect(policy.delay(afterStatus: 503, retryAfter: "4", attempt: 1, elapsed: 2, random: 0, now: Self.now) == nil)
    }
}
