#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierObservabilityTestSupport
import CourierTestServer
import Foundation
import Logging
import Testing

@Suite struct LoggingCacheTests {
    @Test(arguments: Engine.allCases)
    func aLineForAnAnswerFromTheCacheSaysWhereItCameFrom(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        var policies = Policies()
        policies.cache = HTTPCache()
        policies.callLayers = [logging(to: logger)]
        try await engine.withExchange(policies: policies) { server, exchange in
            for path in ["/cache/log-hit?cc=max-age%3D600", "/cache/log-revalidated?etag=v1"] {
                _ = try await exchange(URLRequest(url: server.url(path)))
                _ = try await exchange(URLRequest(url: server.url(path)))
            }
        }
        #expect(store.entries.map { $0["courier.response.source"] } == [nil, "cache", nil, "revalidated"])
    }
}
