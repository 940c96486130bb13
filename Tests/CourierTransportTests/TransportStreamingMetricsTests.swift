#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// What each transport measured of a streamed exchange: up to the first byte on the head, the
/// whole exchange on the body once it has ended, and what a failed body read carries.
@Suite(.testServer) struct TransportStreamingMetricsTests {
    @Test(arguments: TransportKind.configured)
    func theHeadStopsAtTheFirstByteAndTheBodyHasTheRest(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (body, head) = try await transport.streaming(URLRequest(url: server.url("/bytes/100000")), nil)
        #expect(head.statusCode == 200)
        let firstByte = try #require(head.metrics.firstByte)
        #expect(head.metrics.total == nil, "the total is not known before the body ends")
        #expect(head.metrics.decodedBodyBytes == nil)
        let data = try await body.collect(upTo: 200_000)
        #expect(data.count == 100_000)
        let metrics = try #require(body.metrics, "a body read to its end has the exchange's metrics")
        let total = try #require(metrics.total)
        #expect(total >= firstByte)
        #expect(metrics.firstByte == firstByte)
        #expect(metrics.decodedBodyBytes == 100_000)
    }

    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func curlsHeadHasEveryPhaseBeforeTheFirstByte() async throws {
        let server = try sharedServer()
        let (body, head) = try await TransportKind.curl.streaming(URLRequest(url: server.url("/bytes/1000")), nil)
        #expect(head.metrics.requestSent != nil)
        #expect(head.metrics.remoteAddress?.hasPrefix("127.0.0.1:") == true)
        #expect(head.metrics.connectionReused != nil)
        #expect(head.metrics.responseBodyBytes == nil)
        _ = try await body.collect(upTo: 2000)
        #expect(body.metrics?.responseBodyBytes == 1000)
        #expect(body.metrics?.remoteAddress == head.metrics.remoteAddress)
    }

    @Test(arguments: TransportKind.configured)
    func bothHalvesListTheHopsOfARedirect(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (body, head) = try await transport.streaming(URLRequest(url: server.url("/redirect/2")), nil)
        #expect(head.statusCode == 200)
        #expect(head.metrics.redirects.count == 2)
        _ = try await body.collect(upTo: 1 << 20)
        #expect(body.metrics?.redirects.count == 2)
        #expect(body.metrics?.total != nil)
    }

    @Test(arguments: TransportKind.configured)
    func bothHalvesListTheAttemptsOfARetriedRequest(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.retries = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
        let url = try sharedServer().url("/flaky/\(UUID().uuidString)/2?status=500")
        try await transport.withIsolatedStreamingTransport(policies: policies) { streaming in
            let (body, head) = try await streaming(URLRequest(url: url), nil)
            #expect(head.statusCode == 200)
            #expect(head.metrics.attempts.map(\.statusCode) == [500, 500])
            _ = try await body.collect(upTo: 1 << 20)
            #expect(body.metrics?.attempts == head.metrics.attempts)
            #expect(body.metrics?.total != nil)
        }
    }

    @Test(arguments: TransportKind.configured)
    func aBodyThatBreaksOffCarriesWhatWasMeasured(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let (body, head) = try await transport.streaming(URLRequest(url: server.url("/truncate/200000")), nil)
        #expect(head.statusCode == 200)
        let error = await #expect(throws: URLError.self) { _ = try await body.collect(upTo: 1 << 20) }
        #expect(error?.code == .networkConnectionLost)
        let carried = try #require(error?.exchangeMetrics, "the error carries the exchange's metrics")
        #expect(carried.firstByte != nil)
        #expect(carried.total != nil)
        #expect(body.metrics?.total == carried.total)
    }

    @Test(arguments: TransportKind.configured)
    func theURLSessionAnswerOfADownloadIsBuiltFromTheHead(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let shared: any HTTPTransport = switch transport {
        case .urlSession: TransportKind.sharedURLSessionTransport
        case .curl: try TransportKind.sharedCurlTransport
        }
        let (file, response) = try await shared.download(for: URLRequest(url: server.url("/response-headers?X-Kind=native")))
        defer { try? FileManager.default.removeItem(at: file) }
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "X-Kind") == "native")
    }
}
