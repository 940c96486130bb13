import ArgumentParser
import Courier
import Foundation

/// curl's retry options for `courier request`, with curl's meaning: `--retry N` tries a
/// transfer up to N more times after a timeout, a host name that did not resolve, or a 408,
/// 429, 500, 502, 503 or 504, whatever the method, waiting 1 s and then twice as long each time
/// (up to 10 minutes), or the server's `Retry-After`.
struct RetryOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Retry up to NUM times after a timeout, an unresolved host, or a 408, 429, 500, 502, 503 or 504 (as curl; any method).",
        valueName: "num"
    ))
    var retry: Int = 0

    @Option(help: ArgumentHelp(
        "Wait SECONDS before each retry instead of the doubling backoff (1 s, 2 s, 4 s … up to 600 s); 0 keeps the backoff.",
        valueName: "seconds"
    ))
    var retryDelay: Double = 0

    @Option(help: ArgumentHelp(
        "Begin no retry whose wait would end more than SECONDS after the first attempt began; 0 for no limit.",
        valueName: "seconds"
    ))
    var retryMaxTime: Double = 0

    @Flag(help: "With --retry, also retry a refused connection.")
    var retryConnrefused = false

    func validate() throws {
        guard retry >= 0 else { throw ValidationError("--retry must be 0 or more") }
        guard retryDelay.isFinite, retryDelay >= 0 else { throw ValidationError("--retry-delay must be 0 or more seconds") }
        guard retryMaxTime.isFinite, retryMaxTime >= 0 else { throw ValidationError("--retry-max-time must be 0 or more seconds") }
    }

    /// The policy these options describe; ``RetryPolicy/none`` without `--retry`.
    var policy: RetryPolicy {
        guard retry > 0 else { return .none }
        // curl's backoff: 1 s doubling to 10 minutes, no jitter; --retry-delay fixes the wait.
        var policy = RetryPolicy(
            maximumAttempts: retry == Int.max ? retry : retry + 1,
            initialDelay: retryDelay > 0 ? retryDelay : 1,
            multiplier: retryDelay > 0 ? 1 : 2,
            maximumDelay: retryDelay > 0 ? retryDelay : 600,
            jitter: 0,
            maximumRetryTime: retryMaxTime > 0 ? retryMaxTime : nil,
            retryableErrorCodes: [.timedOut, .cannotFindHost, .dnsLookupFailed],
            maximumRetryAfter: 600,
            retriesAnyMethod: true
        )
        if retryConnrefused { policy.retryableErrorCodes.insert(.cannotConnectToHost) }
        return policy
    }
}
