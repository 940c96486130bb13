import Foundation
import Courier

/// What one exchange produced: the raw header block of the final response, its decoded body,
/// and what libcurl measured of it.
struct CurlExchange: Sendable {
    var headerBytes: [UInt8]
    var body: Data
    /// Read once when the transfer ended (see ``CurlTransfer/recordMetrics(_:finished:)``).
    var measured: CurlMeasuredEnd?

    /// Built here, on the awaiting task, rather than on the loop's thread.
    var metrics: ExchangeMetrics { measured?.metrics ?? ExchangeMetrics() }
}

/// What the awaiting task gets back from the curl thread.
enum CurlTransferOutcome: Sendable {
    /// The transfer completed and its body was collected.
    case exchange(CurlExchange)
    /// The final response's head arrived, with what libcurl had measured up to it; the body
    /// streams through the transfer's reader.
    case head(headerBytes: [UInt8], metrics: ExchangeMetrics)
}
