#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One attempt of a request that the retry layer (``Policies/retries``) sent again: how it ended, how long it took and
/// how long the layer waited after it. ``ExchangeMetrics/attempts`` lists them.
public struct ExchangeAttempt: Sendable, Equatable {
    /// The status of the response that was retried; nil when the attempt failed.
    public var statusCode: Int?
    /// The failure that was retried; nil when a response came.
    public var errorCode: URLError.Code?
    /// From the start of the attempt to its response head or failure.
    public var duration: Duration
    /// The wait after this attempt, before the next began.
    public var delay: Duration
    /// What the engine measured of the attempt, where it answered with metrics: its own
    /// ``ExchangeMetrics/redirects`` included.
    public var metrics: ExchangeMetrics?

    /// An attempt as described by each property.
    package init(
        statusCode: Int? = nil, errorCode: URLError.Code? = nil, duration: Duration, delay: Duration, metrics: ExchangeMetrics? = nil
    ) {
        self.statusCode = statusCode
        self.errorCode = errorCode
        self.duration = duration
        self.delay = delay
        self.metrics = metrics
    }
}
