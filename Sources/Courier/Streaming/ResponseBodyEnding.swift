/// How a streamed ``ResponseBody`` ended, for the layers that saw its head: logging, metrics and
/// tracing, and layers of your own, tell of the end of the transfer as they told of the head.
/// See ``ResponseBody/whenEnded(_:)``.
public struct ResponseBodyEnding: Sendable {
    /// The body's bytes that arrived, decoded, whether or not the reader took them all.
    public var bytes: Int
    /// Why the body ended before its end: the engine's failure, the reader's cancel or drop
    /// (`URLError(.cancelled)`), a total deadline; nil when it arrived whole.
    public var error: (any Error)?
    /// What the engine measured of the whole exchange, when it had said so by the end: always
    /// for a body that arrived whole or failed, not for one its reader ended first.
    public var metrics: ExchangeMetrics?
    /// When the body ended, or when the handler was given, if the body had ended before its
    /// head reached whoever gave it; a layer counts the call's duration from its own start to
    /// this.
    public var instant: ContinuousClock.Instant
}
