#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierObservabilityTestSupport
import CourierTestServer
import CourierTracing
import Foundation
import InMemoryTracing
import Testing
import Tracing

/// A retried request is one span, whose resend count includes its retries.
@Suite struct TracingLayerRetryTests {
    @Test(arguments: Engine.allCases)
    func retriesAndRedirectsAreCountedAsResends(_ engine: Engine) async throws {
        var policies = Policies()
        policies.retries = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
        let tracer = W3CRecordingTracer()
        let head = try await engine.withExchange(policies: policies) { server, exchange in
            // Each attempt is a redirect and two 503s, then the third is answered: 2 retries, 1 redirect.
            let url = server.url("/redirect-to?url=/flaky/trace/2")
            return try await layered(exchange, [tracing(tracer: tracer)])(URLRequest(url: url)).1
        }
        #expect(head.metrics.attempts.count == 2)
        #expect(head.metrics.redirects.count == 1)
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(tracer.recorder.finishedSpans.count == 1)
        #expect(span.attributes["http.request.resend_count"]?.toSpanAttribute() == 3)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        // The last attempt's phases come after the earlier attempts and their waits.
        let firstByte = try #require(span.events.first { $0.name == "firstByte" })
        let earlier = head.metrics.attempts.reduce(Duration.zero) { $0 + $1.duration + $1.delay }
        #expect(firstByte.nanosecondsSinceEpoch >= span.startInstant.nanosecondsSinceEpoch + UInt64(earlier.nanoseconds))
    }
}
