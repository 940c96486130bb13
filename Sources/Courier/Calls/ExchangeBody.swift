#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A response body as the policy layers hand it up: `Data` received whole, or a
/// ``ResponseBody`` still arriving after its head.
///
/// The layers decide everything on the head, the same way for both. Three policies reach past
/// the head, into a body that may still be arriving: error descriptions, the total deadline, and
/// the cache, which stores a body as it is read and answers with one read from its store. This
/// is where the two kinds of body differ.
package protocol ExchangeBody: Sendable {
    /// This body, with the errors that reading it throws later described for `request` as
    /// the error-description layer describes the errors of the head.
    func describingErrors(for request: URLRequest) -> Self

    /// This body, failing with `error()` if it is still arriving at `deadline`.
    func ending(at deadline: ContinuousClock.Instant, with error: @escaping @Sendable () -> URLError) -> Self

    /// This body, answering after redirects from hops measured as `hops` (first to last), as
    /// ``ExchangeHead/redirected(after:)`` says of its head.
    func redirected(after hops: [ExchangeMetrics]) -> Self

    /// This body, answering after `attempts` were retried, as ``ExchangeHead/retried(after:)``
    /// says of its head.
    func retried(after attempts: [ExchangeAttempt]) -> Self

    /// This body, written into `writer` as it is read, and kept only when read whole.
    func storing(into writer: any CacheBodyWriter) -> Self

    /// A body read from a cache's store by `reader`, whose reads end with `metrics`; nil when
    /// the store cannot read it (a miss). `url` is the stored response's, named in the error of
    /// a streamed body that fails part-way.
    static func stored(_ reader: any CacheBodyReader, url: URL?, metrics: ExchangeMetrics) -> Self?
}

extension Data: ExchangeBody {
    /// Bytes received whole throw nothing later.
    package func describingErrors(for request: URLRequest) -> Data { self }

    /// Bytes received whole are complete before any deadline could end them.
    package func ending(at deadline: ContinuousClock.Instant, with error: @escaping @Sendable () -> URLError) -> Data { self }

    /// Bytes carry no metrics; the head carries the hops.
    package func redirected(after hops: [ExchangeMetrics]) -> Data { self }

    /// Bytes carry no metrics; the head carries the attempts.
    package func retried(after attempts: [ExchangeAttempt]) -> Data { self }
}
