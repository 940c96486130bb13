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

/// A streamed call is recorded when its body ends, as a buffered one is when it returns: counted,
/// timed to the end of its body, with the bytes that arrived, and in flight until then.
@Suite struct MetricsStreamedBodyTests {
    private static let ok = [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "2xx")]
    private static let failed = [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "error")]

    @Test(arguments: Engine.allCases)
    func aBodyReadToItsEndIsCountedTimedAndWeighed(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        try await engine.withTransport(policies: Engine.policies(with: recordingMetrics(factory: metrics))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/bytes/300000")))
            #expect(try await body.collect(upTo: .max).count == 300_000)
        }
        #expect(try metrics.expectCounter("courier_requests_total", Self.ok).totalValue == 1)
        #expect(try metrics.expectRecorder("courier_response_body_bytes", Self.ok).values == [300_000])
        #expect(try metrics.expectTimer("courier_request_duration", Self.ok).values.count == 1)
        #expect(metrics.meters.first?.lastValue == 0)
    }

    /// Until its body ends the call is in flight and not counted; dropping the body ends it as
    /// an error.
    @Test(arguments: Engine.allCases)
    func aDroppedBodyEndsTheCallAsAnError(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        try await engine.withTransport(policies: Engine.policies(with: recordingMetrics(factory: metrics))) { server, transport in
            // Half a body, then silence: only the drop can end it.
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/stall/1000")))
            #expect(metrics.counters.isEmpty)
            #expect(metrics.meters.first?.lastValue == 1)
            _ = consume body
            await waitFor { !metrics.counters.isEmpty }
        }
        #expect(try metrics.expectCounter("courier_requests_total", Self.failed).totalValue == 1)
        #expect(try metrics.expectRecorder("courier_response_body_bytes", Self.failed).values.count == 1)
        #expect(metrics.meters.first?.lastValue == 0)
    }

    @Test(arguments: Engine.allCases)
    func aBodyThatBreaksOffIsCountedAsAnError(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        try await engine.withTransport(policies: Engine.policies(with: recordingMetrics(factory: metrics))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/truncate/200000")))
            await #expect(throws: URLError.self) { for try await _ in body {} }
        }
        #expect(try metrics.expectCounter("courier_requests_total", Self.failed).totalValue == 1)
        let bytes = try metrics.expectRecorder("courier_response_body_bytes", Self.failed).values
        #expect(bytes.count == 1 && bytes.allSatisfy { $0 <= 100_000 })
        #expect(metrics.counterTotal(label: "courier_requests_total") == 1)
    }
}
