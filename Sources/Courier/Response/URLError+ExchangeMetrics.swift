#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLError {
    /// The `userInfo` key under which both engines keep what they measured of an exchange that
    /// failed after it started; read it with ``exchangeMetrics``. An engine of your own puts
    /// its ``ExchangeMetrics`` under it too.
    public static let exchangeMetricsKey = "CourierExchangeMetrics"

    /// What the engine measured of the exchange before it failed (a timeout after the
    /// connection was made, a reset, a limit passed), or nil when it failed before the engine
    /// ran it (a request Courier refused) or the error did not come from an engine.
    ///
    /// `CurlTransport` reads it from libcurl once the transfer ended, whichever way it ended.
    /// `URLSessionTransport` measures around FoundationNetworking's task: the first byte when a
    /// head arrived and how long the task ran, which for a request FoundationNetworking refused
    /// itself is the moment it took to refuse it.
    ///
    /// The same fields as a response's ``ResponseHead/metrics``: the phases the exchange
    /// reached, ``ExchangeMetrics/total``, how long it ran until it failed, and the hops and
    /// attempts before it when redirects were followed (``ExchangeMetrics/redirects``) or the
    /// request was retried (``ExchangeMetrics/attempts``).
    /// ``APIError/metrics`` reads it for a transport failure.
    public var exchangeMetrics: ExchangeMetrics? {
        userInfo[Self.exchangeMetricsKey] as? ExchangeMetrics
    }

    /// This error carrying `metrics`, unless it carries some already: the engine closest to the
    /// wire measured first.
    package func carrying(_ metrics: ExchangeMetrics?) -> URLError {
        guard let metrics, exchangeMetrics == nil else { return self }
        var info = userInfo
        info[Self.exchangeMetricsKey] = metrics
        return URLError(code, userInfo: info)
    }

    /// This error with the metrics it carries, if any, changed by `change`: the redirect and
    /// retry layers add the hops and attempts before the one that failed.
    func changingMetrics(_ change: (inout ExchangeMetrics) -> Void) -> URLError {
        guard var metrics = exchangeMetrics else { return self }
        change(&metrics)
        var info = userInfo
        info[Self.exchangeMetricsKey] = metrics
        return URLError(code, userInfo: info)
    }
}

/// `error` carrying `metrics` when it is a `URLError` (see ``URLError/exchangeMetrics``); any
/// other error as it is.
package func carrying(_ metrics: ExchangeMetrics?, on error: any Error) -> any Error {
    guard let metrics, let urlError = error as? URLError else { return error }
    return urlError.carrying(metrics)
}
