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

@Suite struct TracingCacheTests {
    @Test(arguments: Engine.allCases)
    func aSpanForAnAnswerFromTheCacheSaysWhereItCameFrom(_ engine: Engine) async throws {
        let tracer = W3CRecordingTracer()
        var policies = Policies()
        policies.cache = HTTPCache()
        policies.callLayers = [tracing(tracer: tracer)]
        try await engine.withExchange(policies: policies) { server, exchange in
            for path in ["/cache/trace-hit?cc=max-age%3D600", "/cache/trace-revalidated?etag=v1"] {
                _ = try await exchange(URLRequest(url: server.url(path)))
                _ = try await exchange(URLRequest(url: server.url(path)))
            }
        }
        let sources = tracer.recorder.finishedSpans.map { $0.attributes["courier.response.source"]?.toSpanAttribute() }
        #expect(sources == [nil, .string("cache"), nil, .string("revalidated")])
    }
}
