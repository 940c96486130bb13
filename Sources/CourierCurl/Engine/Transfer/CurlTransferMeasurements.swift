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
    /// The whole transfer's, once it ended; nil before, or when it ended before libcurl ran it.
    private(set) var final: ExchangeMetrics?

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
        guard let info else {
            var counted = ExchangeMetrics()
            counted.decodedBodyBytes = decodedBodyBytes
            final = counted
            return
        }
        var measured = ExchangeMetrics(info, decodedBodyBytes: decodedBodyBytes)
        if !finished, let configuredAt {
            measured.total = max(measured.total ?? .zero, ContinuousClock.now - configuredAt)
        }
        final = measured
    }
}
