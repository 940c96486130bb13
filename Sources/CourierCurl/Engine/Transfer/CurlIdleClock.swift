import Courier

/// The idle timeout of one transfer: ``CurlRequestPlan/idleTimeout`` without a byte in either
/// direction. The total deadline is a shared layer above the engine.
///
/// The clock runs from the transfer's creation: waiting for a connection, in the event loop's
/// queue or libcurl's, and connecting count as silence too, as they do for URLSession's
/// `timeoutInterval`. libcurl 7.88 neither calls the progress callback nor checks
/// `CURLOPT_TIMEOUT_MS` for a transfer queued behind `CURLMOPT_MAX_HOST_CONNECTIONS`: on its
/// own, such a transfer waited for a free connection however long that took, then failed at once.
struct CurlIdleClock {
    private let timeout: Duration
    /// Named in the message of a transfer that timed out before libcurl ran it.
    private let maximumConnectionsPerHost: Int
    private var lastActivity = ContinuousClock.now
    /// When the handle was configured for this transfer, which libcurl's times count from.
    private(set) var configuredAt: ContinuousClock.Instant?
    /// Whether libcurl has reported progress yet: it does not while the transfer waits in its
    /// queue for a free connection.
    private var hasProgressed = false
    /// Bytes seen by the last progress report.
    private var bytesMoved: Int64 = 0

    init(timeout: Duration, maximumConnectionsPerHost: Int) {
        self.timeout = timeout
        self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
    }

    /// The handle was configured for the transfer.
    mutating func handleConfigured(at now: ContinuousClock.Instant) {
        configuredAt = now
        bytesMoved = 0
        hasProgressed = false
    }

    /// A paused direction goes on: the silence so far was not the server's.
    mutating func restart(at now: ContinuousClock.Instant) {
        lastActivity = now
    }

    /// libcurl reports progress: `moved` counts every byte so far, body both ways plus header
    /// bytes, so a server trickling headers is not silent either. True when bytes moved since
    /// the last report, which restarts the clock.
    mutating func progress(moved: Int64, at now: ContinuousClock.Instant) -> Bool {
        hasProgressed = true
        guard moved != bytesMoved else { return false }
        bytesMoved = moved
        lastActivity = now
        return true
    }

    /// The error of a transfer silent past its timeout at `now`, if it is. Silence while
    /// `isPaused` is the reader's or the producer's, not the server's: it restarts the clock.
    mutating func overdueError(at now: ContinuousClock.Instant, isPaused: () -> Bool) -> CurlError? {
        guard now - lastActivity > timeout else { return nil }
        if isPaused() {
            lastActivity = now
            return nil
        }
        let waiting = hasProgressed ? "" : ", waiting for a connection (at most \(maximumConnectionsPerHost) per host)"
        return CurlError(
            kind: .transfer, curlCode: Curl.Code.operationTimedOut,
            message: "no data received or sent for \(timeout.formattedSeconds)\(waiting)"
        )
    }
}
