#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// What each engine measured of an exchange that failed after it started, as the failure
/// carries it: on the `URLError` (`exchangeMetrics`) and on ``APIError/metrics``.
@Suite(.testServer) struct TransportFailureMetricsTests {
    /// The shared transport's `exchange`: the engine with the policy layers over it.
    private func exchange(_ transport: TransportKind) throws -> HTTPExchange {
        switch transport {
        case .urlSession: TransportKind.sharedURLSessionTransport.exchange
        case .curl: try TransportKind.sharedCurlTransport.exchange
        }
    }

    /// Sends `path` with an idle timeout of `timeout` and returns the error.
    private func failure(of path: String, on transport: TransportKind, timeout: TimeInterval = 0.5) async throws -> URLError {
        var request = URLRequest(url: try sharedServer().url(path))
        request.timeoutInterval = timeout
        let exchange = try exchange(transport)
        let error = await #expect(throws: URLError.self) { _ = try await exchange(request) }
        return try #require(error)
    }

    @Test(arguments: TransportKind.configured)
    func aTimeoutAfterTheHeadCarriesThePhasesAndHowLongItRan(_ transport: TransportKind) async throws {
        // Long enough that the head arrives in time on a loaded machine.
        let error = try await failure(of: "/stall/1000", on: transport, timeout: 3)
        #expect(error.code == .timedOut)
        let metrics = try #require(error.exchangeMetrics, "the timeout carries what the engine measured")
        let firstByte = try #require(metrics.firstByte)
        let total = try #require(metrics.total)
        #expect(total >= .seconds(3))
        #expect(total >= firstByte)
        if transport == .curl {
            #expect(metrics.requestSent != nil)
            #expect(metrics.remoteAddress?.hasPrefix("127.0.0.1:") == true)
        }
    }

    /// libcurl counts its first read as the first byte even when it finds the connection
    /// closed; URLSession's engine, which sees only heads, has none.
    @Test(arguments: TransportKind.configured)
    func aConnectionClosedBeforeTheHeadCarriesHowLongItRan(_ transport: TransportKind) async throws {
        let error = try await failure(of: "/close", on: transport)
        let metrics = try #require(error.exchangeMetrics, "\(error.code)")
        #expect(metrics.total != nil)
        switch transport {
        case .urlSession: #expect(metrics.firstByte == nil)
        case .curl: #expect(metrics.connect != nil)
        }
    }

    @Test(arguments: TransportKind.configured)
    func aFailureAfterARedirectListsTheHopBeforeIt(_ transport: TransportKind) async throws {
        // Long enough that the redirect itself is answered in time on a loaded machine.
        let error = try await failure(of: "/redirect-to?url=/stall/1000", on: transport, timeout: 2)
        #expect(error.code == .timedOut)
        let metrics = try #require(error.exchangeMetrics)
        #expect(metrics.redirects.count == 1)
        #expect(metrics.redirects.first?.total != nil)
    }

    @Test(arguments: TransportKind.configured)
    func anAPIErrorForATransportFailureHasTheEnginesMetrics(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let dispatcher = Dispatcher(exchange: try exchange(transport))
        var request = URLRequest(url: server.url("/stall/1000"))
        request.timeoutInterval = 2
        do {
            _ = try await dispatcher.response(to: request)
            Issue.record("expected a timeout")
        } catch {
            #expect(error.urlError?.code == .timedOut)
            let metrics = try #require(error.metrics)
            #expect(metrics == error.urlError?.exchangeMetrics)
            #expect(metrics.total.map { $0 >= .seconds(2) } == true)
        }
    }

    /// The total deadline cancels the exchange in flight; its error carries what the engine
    /// measured until then, through the buffered `Networking` too.
    @Test(arguments: TransportKind.configured)
    func theTotalDeadlineCarriesWhatTheEngineMeasuredBeforeIt(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.totalDeadline = 1
        var request = URLRequest(url: try sharedServer().url("/stall/1000"))
        request.timeoutInterval = 60
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            try #require(await #expect(throws: URLError.self) { _ = try await networking(request) })
        }
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription.contains("the total deadline of 1 s passed"), "\(error.localizedDescription)")
        let metrics = try #require(error.exchangeMetrics, "the deadline's error carries the cancelled exchange's metrics")
        #expect(metrics.total != nil)
        if transport == .curl { #expect(metrics.requestSent != nil) }
    }

    @Test(arguments: TransportKind.configured)
    func aFailureBeforeTheEngineRanCarriesNothing(_ transport: TransportKind) async throws {
        let exchange = try exchange(transport)
        let error = await #expect(throws: URLError.self) {
            _ = try await exchange(URLRequest(url: try #require(URL(string: "ftp://127.0.0.1/file"))))
        }
        #expect(error?.code == .unsupportedURL)
        #expect(error?.exchangeMetrics == nil)
    }
}
