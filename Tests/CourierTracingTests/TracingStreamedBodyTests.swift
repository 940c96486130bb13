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

/// A streamed call's span lasts until its body ends, and records the bytes that arrived and the
/// error if the body did not arrive whole.
@Suite struct TracingStreamedBodyTests {
    @Test(arguments: Engine.allCases)
    func aBodyReadToItsEndRecordsItsBytes(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        try await engine.withTransport(policies: Engine.policies(with: tracing(tracer: tracer))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/bytes/300000")))
            #expect(try await body.collect(upTo: .max).count == 300_000)
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(tracer.recorder.finishedSpans.count == 1)
        #expect(span.attributes["http.response.body.size"]?.toSpanAttribute() == 300_000)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.status == nil)
        #expect(span.errors.isEmpty)
    }

    @Test(arguments: Engine.allCases)
    func theSpanOfADroppedBodyStaysOpenUntilTheDropAndRecordsTheCancel(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        try await engine.withTransport(policies: Engine.policies(with: tracing(tracer: tracer))) { server, transport in
            // Half a body, then silence: only the drop can end it.
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/stall/1000")))
            #expect(tracer.recorder.finishedSpans.isEmpty)
            _ = consume body
            await waitFor { !tracer.recorder.finishedSpans.isEmpty }
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "URLError.cancelled")
        #expect((span.errors.first?.error as? RecordedFailure)?.type == "URLError.cancelled")
    }

    @Test(arguments: Engine.allCases)
    func aBodyThatBreaksOffRecordsItsError(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        try await engine.withTransport(policies: Engine.policies(with: tracing(tracer: tracer))) { server, transport in
            let (body, _) = try await transport.stream(for: URLRequest(url: server.url("/truncate/200000")))
            await #expect(throws: URLError.self) { for try await _ in body {} }
        }
        let span = try #require(tracer.recorder.finishedSpans.first)
        #expect(span.status?.code == .error)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "URLError.networkConnectionLost")
        #expect(span.errors.count == 1)
    }
}
