#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierObservabilityTestSupport
import CourierMetrics
import CourierTestServer
import Foundation
import Metrics
import MetricsTestKit
import Testing

@Suite struct MetricsLayerTests {
    @Test(arguments: Engine.allCases)
    func eachExchangeIsCountedAndTimedByMethodHostAndStatusClass(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        let clock = ContinuousClock()
        let elapsed = try await engine.withExchange { server, exchange in
            let measured = layered(exchange, [recordingMetrics(factory: metrics)])
            let start = clock.now
            _ = try await measured(URLRequest(url: server.url("/get")))
            _ = try await measured(URLRequest(url: server.url("/get")))
            _ = try await measured(URLRequest(url: server.url("/status/404")))
            var post = URLRequest(url: server.url("/status/503"))
            post.httpMethod = "POST"
            _ = try await measured(post)
            return clock.now - start
        }
        let ok = [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "2xx")]
        #expect(try metrics.expectCounter("courier_requests_total", ok).totalValue == 2)
        #expect(try metrics.expectCounter("courier_requests_total", [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "4xx")]).totalValue == 1)
        #expect(try metrics.expectCounter("courier_requests_total", [("method", "POST"), ("host", "127.0.0.1"), ("status_class", "5xx")]).totalValue == 1)
        let durations = try metrics.expectTimer("courier_request_duration", ok).values
        #expect(durations.count == 2)
        #expect(durations.allSatisfy { $0 > 0 && $0 <= elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000 })
        #expect(metrics.counterTotal(label: "courier_requests_total") == 4)
    }

    @Test(arguments: Engine.allCases)
    func aFailureIsCountedAsAnError(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange { _, exchange in
            _ = try? await layered(exchange, [recordingMetrics(prefix: "api", factory: metrics)])(URLRequest(url: refusing.url("/get")))
        }
        try await refusing.close()
        let dimensions = [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "error")]
        #expect(try metrics.expectCounter("api_requests_total", dimensions).totalValue == 1)
        #expect(try metrics.expectTimer("api_request_duration", dimensions).values.count == 1)
        #expect(metrics.counters.count == 1)
    }

    /// A layer below the metrics one holds the failure for a second: the timer records what the
    /// engine measured, not that.
    @Test(arguments: Engine.allCases)
    func aFailureAfterTheExchangeStartedIsTimedAsTheEngineMeasuredIt(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        let caught = StalledExchange.Caught()
        try await engine.withExchange { server, exchange in
            let measured = layered(StalledExchange.failingLate(exchange, keepingIn: caught), [recordingMetrics(factory: metrics)])
            _ = try? await measured(StalledExchange.request(on: server))
        }
        let dimensions = [("method", "GET"), ("host", "127.0.0.1"), ("status_class", "error")]
        let durations = try metrics.expectTimer("courier_request_duration", dimensions).values
        let total = try #require(try caught.metrics.total)
        #expect(durations == [total.nanoseconds])
    }

    @Test func theInFlightMeterRisesDuringAnExchangeAndFallsAfter() async throws {
        let metrics = TestMetrics()
        try await Engine.curl.withExchange { server, exchange in
            let measured = layered(exchange, [recordingMetrics(factory: metrics)])
            // Answered after 5 s, so the meter's rise is there to see however late the poll runs.
            let slow = Task { try await measured(URLRequest(url: server.url("/delay/5"))) }
            let meter = try await waitForMeter(in: metrics)
            #expect(meter.lastValue == 1)
            _ = try await slow.value
            #expect(meter.lastValue == 0)
            #expect(meter.dimensions.map { "\($0.0)=\($0.1)" } == ["method=GET", "host=127.0.0.1"])
        }
    }

    @Test(arguments: Engine.allCases)
    func noPasswordOrQuerySecretReachesADimension(_ engine: Engine) async throws {
        let metrics = TestMetrics()
        try await engine.withExchange { server, exchange in
            _ = try await layered(exchange, [recordingMetrics(factory: metrics)])(URLRequest(url: try Secrets.url("/get", on: server)))
        }
        let handlers: [(String, [(String, String)])] = metrics.counters.map { ($0.label, $0.dimensions) }
            + metrics.timers.map { ($0.label, $0.dimensions) } + metrics.meters.map { ($0.label, $0.dimensions) }
        #expect(handlers.count == 3)
        for (label, dimensions) in handlers {
            let text = label + dimensions.map { "\($0.0)=\($0.1)" }.joined()
            for secret in Secrets.all + ["alice", "page"] {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
        }
    }

    /// The in-flight meter, once the layer has made it. Waits for that, not for a speed: only
    /// a layer that never made it waits out the 120 s.
    private func waitForMeter(in metrics: TestMetrics) async throws -> TestMeter {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let meter = metrics.meters.first, meter.lastValue == 1 { return meter }
            try await Task.sleep(for: .milliseconds(5))
        }
        return try #require(metrics.meters.first, "no in-flight meter within 120 s")
    }
}
