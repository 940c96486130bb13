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

@Suite struct TracingLayerTests {
    @Test(arguments: Engine.allCases)
    func aClientSpanCarriesOpenTelemetrysAttributesAndItsContextReachesTheServer(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        let (echo, port) = try await engine.withExchange { server, exchange in
            let (data, _) = try await layered(exchange, [tracing(tracer: tracer)])(URLRequest(url: server.url("/get?page=2")))
            return (try JSONDecoder().decode(Echo.self, from: data), server.port)
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(tracer.recorder.finishedSpans.count == 1)
        #expect(span.operationName == "GET")
        #expect(span.kind == .client)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes["url.full"]?.toSpanAttribute() == .string("http://127.0.0.1:\(port)/get?page=2"))
        #expect(span.attributes["server.address"]?.toSpanAttribute() == "127.0.0.1")
        #expect(span.attributes["server.port"]?.toSpanAttribute() == .int64(Int64(port)))
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.attributes["network.protocol.version"]?.toSpanAttribute() == "1.1")
        #expect(span.attributes["error.type"] == nil)
        #expect(span.status == nil)
        let traceparent = echo.headers.first { $0.name.lowercased() == "traceparent" }?.value
        #expect(traceparent == "00-\(span.traceID)-\(span.spanID)-01")
    }

    @Test func theSpanIsAChildOfTheCurrentOneAndFoundThroughWithTracer() async throws {
        let tracer = W3CRecordingTracer()
        try await Engine.urlSession.withExchange { server, exchange in
            let traced = layered(exchange, [tracing()])
            try await withTracer(tracer) {
                try await withSpan("checkout") { _ in
                    _ = try await traced(URLRequest(url: server.url("/get")))
                }
            }
        }
        let spans = tracer.recorder.finishedSpans
        let parent = try #require(spans.first { $0.operationName == "checkout" })
        let child = try #require(spans.first { $0.operationName == "GET" })
        #expect(child.traceID == parent.traceID)
        #expect(child.parentSpanID == parent.spanID)
    }

    @Test(arguments: Engine.allCases)
    func aStatusOf400OrAboveAndAFailureMarkTheSpanAnError(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange { server, exchange in
            let traced = layered(exchange, [tracing(tracer: tracer)])
            _ = try await traced(URLRequest(url: server.url("/status/503")))
            _ = try? await traced(URLRequest(url: refusing.url("/get")))
        }
        try await refusing.close()
        let spans = tracer.recorder.finishedSpans
        try #require(spans.count == 2)
        #expect(spans[0].status?.code == .error)
        #expect(spans[0].attributes["error.type"]?.toSpanAttribute() == "503")
        #expect(spans[0].attributes["http.response.status_code"]?.toSpanAttribute() == 503)
        #expect(spans[1].status?.code == .error)
        #expect(spans[1].status?.message?.hasPrefix("could not connect to the server") == true)
        #expect(spans[1].attributes["error.type"]?.toSpanAttribute() == "URLError.cannotConnectToHost")
        #expect(spans[1].errors.count == 1)
        #expect((spans[1].errors.first?.error as? RecordedFailure)?.type == "URLError.cannotConnectToHost")
    }

    /// Every phase the engine measured is an event at the time it ended, and no other is: a
    /// phase is never invented. URLSession's engine always measures the first byte.
    @Test(arguments: Engine.allCases)
    func thePhasesTheEngineMeasuredBecomeEventsInOrder(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        let head = try await engine.withExchange { server, exchange in
            try await layered(exchange, [tracing(tracer: tracer)])(URLRequest(url: server.url("/delay/0.2"))).1
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        let metrics = head.metrics
        let measured = [
            ("queued", metrics.queued), ("nameLookup", metrics.nameLookup), ("connect", metrics.connect),
            ("secureConnect", metrics.secureConnect), ("requestSent", metrics.requestSent), ("firstByte", metrics.firstByte),
        ].compactMap { name, duration in duration.map { (name, $0) } }
        #expect(span.events.map(\.name) == measured.map(\.0))
        let start = span.startInstant.nanosecondsSinceEpoch
        for (event, (_, duration)) in zip(span.events, measured) {
            #expect(event.nanosecondsSinceEpoch >= start + UInt64(duration.nanoseconds))
            #expect(event.nanosecondsSinceEpoch <= span.endInstant.nanosecondsSinceEpoch)
        }
        if engine == .urlSession {
            let firstByte = try #require(span.events.first { $0.name == "firstByte" })
            #expect(firstByte.nanosecondsSinceEpoch >= start + 200_000_000)
        }
    }

    /// The span of an exchange that failed after it started has the phases the engine measured
    /// until then and ends when the engine measured the failure, not when a layer below the
    /// tracing one (which holds the failure for a second here) passed it on.
    @Test(arguments: Engine.allCases)
    func aFailedExchangesSpanHasThePhasesItReachedAndEndsWhenItFailed(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        let caught = StalledExchange.Caught()
        try await engine.withExchange { server, exchange in
            let traced = layered(StalledExchange.failingLate(exchange, keepingIn: caught), [tracing(tracer: tracer)])
            _ = try? await traced(StalledExchange.request(on: server))
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        let metrics = try caught.metrics
        #expect(span.status?.code == .error)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "URLError.timedOut")
        let measured = [
            ("queued", metrics.queued), ("nameLookup", metrics.nameLookup), ("connect", metrics.connect),
            ("secureConnect", metrics.secureConnect), ("requestSent", metrics.requestSent), ("firstByte", metrics.firstByte),
        ].compactMap { name, duration in duration.map { (name, $0) } }
        #expect(span.events.map(\.name) == measured.map(\.0))
        if engine == .curl { #expect(span.events.map(\.name).contains("requestSent")) }
        let total = try #require(metrics.total)
        let lasted = span.endInstant.nanosecondsSinceEpoch - span.startInstant.nanosecondsSinceEpoch
        #expect(lasted == UInt64(total.nanoseconds))
    }

    @Test(arguments: Engine.allCases)
    func noPasswordOrQuerySecretReachesAnAttribute(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange { server, exchange in
            let traced = layered(exchange, [tracing(tracer: tracer)])
            _ = try await traced(URLRequest(url: try Secrets.url("/get", on: server)))
            _ = try? await traced(URLRequest(url: try Secrets.url("/get", port: refusing.port)))
        }
        try await refusing.close()
        let spans = tracer.recorder.finishedSpans
        #expect(spans.count == 2)
        for span in spans {
            var text = span.operationName + (span.status?.message ?? "")
            span.attributes.forEach { key, value in text += " \(key)=\(value)" }
            text += span.events.map(\.name).joined()
            text += span.errors.map { "\($0.error) \(String(reflecting: $0.error))" }.joined()
            for secret in Secrets.all {
                #expect(!text.contains(secret), "\(secret) in \(text)")
            }
            #expect(text.contains("access_token=xxxxx"), "\(text)")
        }
    }
}
