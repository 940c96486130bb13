import Courier

/// The idle timeout of one transfer: ``CurlRequestPlan/idleTimeout`` without a byte in either
/// direction. The total deadline is a shared layer above the engine.
///
/// The clock runs from the transfer's creation: waiting for a connection, in the event loop's
/// queue or libcurl's, and connecting count as silence too, as they do for URLSession's
/// `timeoutInterval`. libcurl 7.88 neither calls the progress callback nor checks
/// `CURLOPT_TIMEOUT_MS` for a transfer queued behind `CURLMOPT_MAX_HOST_CONNECTIONS`: on its
/// own, such a transfer waited for a free connection however long that took, then failed at once.
///
/// libcurl's progress callback only records the bytes moved (``progress(moved:)``); the event
/// loop's check, a few times a second, is what reads the clock and notices that they moved. The
/// callback runs about ten times per small request on the loop's thread, and reading the clock
/// and checking the timeout there cost more than the rest of it; activity is seen at most one
/// check late, so a timeout can only fire later than it would, never earlier.
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
    /// Bytes moved as the last progress report counted them.
    private var reportedBytes: Int64 = 0
    /// Bytes moved when the clock was last checked.
    private var bytesMoved: Int64 = 0

    init(timeout: Duration, maximumConnectionsPerHost: Int) {
        self.timeout = timeout
        self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
    }

    /// The handle was configured for the transfer.
    mutating func handleConfigured(at now: ContinuousClock.Instant) {
        configuredAt = now
        bytesMoved = 0
        reportedBytes = 0
        hasProgressed = false
    }

    /// A paused direction goes on: the silence so far was not the server's.
    mutating func restart(at now: ContinuousClock.Instant) {
        lastActivity = now
    }

    /// libcurl reports progress: `moved` counts every byte so far, body both ways plus header
    /// bytes, so a server trickling headers is not silent either. The next check sees whether
    /// it grew.
    mutating func progress(moved: Int64) {
        hasProgressed = true
        reportedBytes = moved
    }

    /// The error of a transfer silent past its timeout at `now`, if it is. Bytes moved since
    /// the last check restart the clock at `now`. Silence while `isPaused` is the reader's or
    /// the producer's, not the server's: it restarts the clock too.
    mutating func overdueError(at now: ContinuousClock.Instant, isPaused: () -> Bool) -> CurlError? {
        if reportedBytes != bytesMoved {
            bytesMoved = reportedBytes
            lastActivity = now
            return nil
        }
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
