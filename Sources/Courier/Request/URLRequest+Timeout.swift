#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLRequest {
    /// The longest timeout either transport applies: 2,147,483.647 s (about 24.8 days, 2³¹ − 1
    /// milliseconds, libcurl's limit for its millisecond options).
    ///
    /// A longer `timeoutInterval`, `.infinity` included (how code on Apple platforms often asks
    /// for no timeout), is treated as this one. FoundationNetworking converts the interval to
    /// whole milliseconds in an `Int` and traps on such values, so `URLSessionTransport` clamps
    /// them before the request reaches it, and `CurlTransport` clamps them the same way.
    ///
    /// A `timeoutInterval` of 0 means the transport's default on both (60 s unless configured):
    /// FoundationNetworking alone would time such a request out at once.
    package static let maximumTimeoutInterval: TimeInterval = Double(Int32.max) / 1000

    /// `interval` clamped to `maximumTimeoutInterval`; 0, negative values and NaN become
    /// `fallback`. For timeouts from configuration, which are not validated as a request's are.
    static func clampedTimeout(_ interval: TimeInterval, fallback: TimeInterval) -> TimeInterval {
        guard interval > 0 else { return fallback }
        return min(interval, maximumTimeoutInterval)
    }
}
