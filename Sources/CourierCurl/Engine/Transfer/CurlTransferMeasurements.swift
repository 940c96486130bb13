import Courier

/// What libcurl measured of one transfer: up to a streamed body's head, and once it ended.
struct CurlTransferMeasurements {
    /// Whether a streamed head reads libcurl's timings when it is handed over; off with the
    /// transport's metrics.
    var recordsMetrics = true
    /// The event loop's turn when the handle joined the multi handle: a transfer that ends in
    /// that same turn never ran in libcurl, whose measurements are then the previous transfer's.
    var startTurn: UInt64?
    /// What libcurl had measured when a streamed body's head was handed over.
    private(set) var head = ExchangeMetrics()
    /// The whole transfer's, raw, once it ended; nil before, or when it ended before libcurl
    /// ran it.
    private(set) var end: CurlMeasuredEnd?

    /// The whole transfer's metrics, built from ``end``: by whoever reads them, so that for a
    /// collected body it is the awaiting task, not the loop's thread.
    var final: ExchangeMetrics? { end?.metrics }

    mutating func recordHead(_ info: Curl.TransferInfo) {
        head = ExchangeMetrics(headOf: info)
    }

    /// Keeps what libcurl measured of the transfer, with the decoded body bytes counted by the
    /// transfer. `info` is nil when the transport reads no metrics.
    ///
    /// libcurl brings its total up to date when it finishes a transfer, and otherwise only when
    /// bytes move or its progress meter ticks, so a transfer stopped before its end (`finished`
    /// false: cancelled, overdue, shut down) would report the total of its last tick; its total
    /// is then the time since the handle was `configuredAt`, when that is longer.
    mutating func recordEnd(
        _ info: Curl.TransferInfo?, decodedBodyBytes: Int, finished: Bool, configuredAt: ContinuousClock.Instant?
    ) {
        var ended = CurlMeasuredEnd(info: info, decodedBodyBytes: decodedBodyBytes)
        if info != nil, !finished, let configuredAt {
            ended.elapsed = ContinuousClock.now - configuredAt
        }
        end = ended
    }
}

/// What libcurl measured of a transfer when it ended, as read on the loop's thread; the
/// ``ExchangeMetrics`` (durations, address strings) are built from it where they are read.
struct CurlMeasuredEnd: Sendable {
    /// nil when the transport reads no metrics.
    var info: Curl.TransferInfo?
    var decodedBodyBytes: Int
    /// For a transfer stopped before its end: the time since its handle was configured, the
    /// total when it is longer than libcurl's last tick.
    var elapsed: Duration?

    var metrics: ExchangeMetrics {
        guard let info else {
            var counted = ExchangeMetrics()
            counted.decodedBodyBytes = decodedBodyBytes
            return counted
        }
        var measured = ExchangeMetrics(info, decodedBodyBytes: decodedBodyBytes)
        if let elapsed {
            measured.total = max(measured.total ?? .zero, elapsed)
        }
        return measured
    }
}
