#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// What each engine measured of an exchange that failed after it started, as the failure
/// carries it: on the `URLError` (`exchangeMetrics`) and on ``APIError/metrics``.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportFailureMetricsTests {
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

    /// A connection closed halfway through the body: a failure after the head that depends on
    /// no timing, so a loaded machine cannot turn it into one before the head.
    @Test(arguments: TransportKind.configured)
    func aResetAfterTheHeadCarriesThePhasesAndHowLongItRan(_ transport: TransportKind) async throws {
        let error = try await failure(of: "/truncate/200000", on: transport, timeout: TestRun.serverHoldSeconds)
        #expect(error.code == .networkConnectionLost)
        let metrics = try #require(error.exchangeMetrics, "the failure carries what the engine measured")
        let firstByte = try #require(metrics.firstByte)
        let total = try #require(metrics.total)
        #expect(total >= firstByte)
        if transport == .curl {
            #expect(metrics.requestSent != nil)
            #expect(metrics.remoteAddress?.hasPrefix("127.0.0.1:") == true)
            #expect((metrics.responseBodyBytes ?? 0) > 0)
        }
    }

    @Test(arguments: TransportKind.configured)
    func aTimeoutCarriesHowLongTheExchangeRan(_ transport: TransportKind) async throws {
        let started = ContinuousClock.now
        let error = try await failure(of: "/stall/1000", on: transport, timeout: 0.5)
        let elapsed = ContinuousClock.now - started
        #expect(error.code == .timedOut)
        let metrics = try #require(error.exchangeMetrics, "the timeout carries what the engine measured")
        // The engine measures inside the call, so its total never exceeds it, however loaded
        // the machine.
        let total = try #require(metrics.total)
        #expect(total <= elapsed, "total \(total) in a call of \(elapsed)")
        #expect(total > .zero, "a total was measured")
        // The head and some body came, then 0.5 s of silence. libcurl times the first byte and
        // the total on one clock, so there the exchange ran at least that long past its first
        // byte (less a margin for rounding), and a total that stopped at the head falls short.
        // URLSession's engine takes its first byte when the delegate is called, which a loaded
        // machine delays by any amount after the byte arrived, so the two are not compared
        // there. With no head within the timeout there is no first byte, and only the bounds
        // above apply.
        if transport == .curl, let firstByte = metrics.firstByte {
            #expect(total >= firstByte + .milliseconds(450), "total \(total), first byte \(firstByte)")
        }
        if transport == .curl { #expect(metrics.requestSent != nil) }
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
        let error = try await failure(of: "/redirect-to?url=/truncate/200000", on: transport, timeout: TestRun.serverHoldSeconds)
        #expect(error.code == .networkConnectionLost)
        let metrics = try #require(error.exchangeMetrics)
        #expect(metrics.redirects.count == 1)
        #expect(metrics.redirects.first?.total != nil)
    }

    @Test(arguments: TransportKind.configured)
    func anAPIErrorForATransportFailureHasTheEnginesMetrics(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        let dispatcher = Dispatcher(exchange: try exchange(transport))
        do {
            _ = try await dispatcher.response(to: URLRequest(url: server.url("/truncate/200000")))
            Issue.record("expected the connection to be lost")
        } catch {
            #expect(error.urlError?.code == .networkConnectionLost)
            let metrics = try #require(error.metrics)
            #expect(metrics == error.urlError?.exchangeMetrics)
            #expect(metrics.firstByte != nil)
            #expect(metrics.total != nil)
        }
    }

    /// The total deadline cancels the exchange in flight; its error carries what the engine
    /// measured until then, through the buffered `Networking` too.
    @Test(arguments: TransportKind.configured)
    func theTotalDeadlineCarriesWhatTheEngineMeasuredBeforeIt(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.totalDeadline = 1
        var request = URLRequest(url: try sharedServer().url("/stall/1000"))
        // Only the deadline can end it: the stall never resumes and the idle timeout is longer
        // than the test may run.
        request.timeoutInterval = TestRun.serverHoldSeconds
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            try #require(await #expect(throws: URLError.self) { _ = try await networking(request) })
        }
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription.contains("the total deadline of 1 s passed"), "\(error.localizedDescription)")
        let metrics = try #require(error.exchangeMetrics, "the deadline's error carries the cancelled exchange's metrics")
        #expect(metrics.total != nil)
        if transport == .curl { #expect(metrics.requestSent != nil) }
    }

    /// A call that failed on every attempt carries the last attempt's measures after the
    /// attempts before it, each with what its engine measured.
    @Test(arguments: TransportKind.configured)
    func aRetriedFailureListsTheAttemptsBeforeIt(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.retries = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
        let request = URLRequest(url: try sharedServer().url("/truncate/200000"))
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            try #require(await #expect(throws: URLError.self) { _ = try await networking(request) })
        }
        #expect(error.code == .networkConnectionLost)
        let metrics = try #require(error.exchangeMetrics)
        #expect(metrics.firstByte != nil)
        #expect(metrics.attempts.count == 2)
        #expect(metrics.attempts.allSatisfy { $0.errorCode == .networkConnectionLost && $0.metrics?.firstByte != nil })
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
