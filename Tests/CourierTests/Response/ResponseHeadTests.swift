#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

@Suite struct ResponseHeadTests {
    private func measured(total: Duration, reused: Bool) -> ExchangeMetrics {
        var metrics = ExchangeMetrics()
        metrics.total = total
        metrics.connectionReused = reused
        metrics.remoteAddress = "127.0.0.1:8080"
        return metrics
    }

    @Test func metricsReadBackAsGiven() {
        let metrics = measured(total: .milliseconds(12), reused: true)
        let head = ResponseHead(statusCode: 200, url: URL(string: "http://example.com/"), metrics: metrics)
        #expect(head.metrics == metrics)
        #expect(ResponseHead(statusCode: 204, url: nil).metrics == ExchangeMetrics())
    }

    @Test func changingTheMetricsOfACopyLeavesTheOriginalAlone() {
        let first = measured(total: .milliseconds(5), reused: false)
        let original = ResponseHead(statusCode: 200, url: nil, metrics: first)
        var copy = original
        copy.metrics.attempts = [ExchangeAttempt(statusCode: 503, duration: .milliseconds(1), delay: .zero, metrics: nil)]
        copy.metrics.total = .milliseconds(9)
        #expect(original.metrics == first)
        #expect(copy.metrics.total == .milliseconds(9))
        #expect(copy.metrics.attempts.count == 1)
        #expect(copy.metrics.remoteAddress == "127.0.0.1:8080")
    }

    /// A head is held across `await` by every layer an exchange passes through, and each of
    /// those frames stays allocated while the request is in flight: the metrics stay out of line.
    @Test func theMetricsAreNotStoredInline() {
        #expect(MemoryLayout<ResponseHead>.size < MemoryLayout<ExchangeMetrics>.size / 2)
    }
}
