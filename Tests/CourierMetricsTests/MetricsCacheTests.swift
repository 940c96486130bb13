#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierMetrics
import CourierObservabilityTestSupport
import CourierTestServer
import Foundation
import Metrics
import MetricsTestKit
import Testing

@Suite struct MetricsCacheTests {
    @Test(arguments: Engine.allCases)
    func answersFromTheCacheAreCountedBySource(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        var policies = Policies()
        policies.cache = HTTPCache()
        policies.callLayers = [recordingMetrics(factory: metrics)]
        try await engine.withExchange(policies: policies) { server, exchange in
            for path in ["/cache/metrics-hit?cc=max-age%3D600", "/cache/metrics-revalidated?etag=v1"] {
                for _ in 0..<3 { _ = try await exchange(URLRequest(url: server.url(path))) }
            }
        }
        let dimensions = { (source: String) in [("method", "GET"), ("host", "127.0.0.1"), ("source", source)] }
        #expect(try metrics.expectCounter("courier_cache_answers_total", dimensions("cache")).totalValue == 2)
        #expect(try metrics.expectCounter("courier_cache_answers_total", dimensions("revalidated")).totalValue == 2)
        #expect(metrics.counterTotal(label: "courier_requests_total") == 6)
    }
}
