#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// Failures on the wire, each asserting the exact typed error a caller gets. The time limit
/// catches a transport that hangs, where a server that never answers meets one that never
/// gives up.
@Suite(.testServer, .timeLimit(.minutes(5))) struct TransportFailureTests {
    @Test(arguments: TransportKind.configured)
    func serverClosingBeforeAResponseIsBadServerResponse(_ transport: TransportKind) async throws {
        // libcurl's "empty reply from server"; URLSession on Linux and Darwin agree on this code.
        await transport.expectURLError(.badServerResponse, "GET", "/close", on: try sharedServer())
    }

    @Test(arguments: TransportKind.configured)
    func serverClosingMidBodyFails(_ transport: TransportKind) async throws {
        await transport.expectURLError(.networkConnectionLost, "GET", "/truncate/100000", on: try sharedServer())
    }

    @Test(arguments: TransportKind.configured)
    func idleLongerThanTheTimeoutIsTimedOut(_ transport: TransportKind) async throws {
        // A server that never answers: a transport that waited for it rather than for its own
        // timeout reaches the time limit instead of `.timedOut`, however slow the machine.
        await transport.expectURLError(.timedOut, "GET", "/never", on: try sharedServer(), timeout: 0.5)
    }

    /// The idle timeout is one policy on both engines: a request that keeps URLRequest's default
    /// `timeoutInterval` waits `Policies.idleTimeout`, and one that sets its own waits that.
    @Test(arguments: TransportKind.configured)
    func thePolicysIdleTimeoutAppliesUnlessTheRequestSetsItsOwn(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.idleTimeout = 0.5
        let server = try sharedServer()
        let error = try await transport.withIsolatedTransport(policies: policies) { networking in
            await urlError { try await networking(URLRequest(url: server.url("/never"))) }
        }
        #expect(error?.code == .timedOut, "\(String(describing: error))")

        policies.idleTimeout = TestRun.serverHoldSeconds
        let ownError = try await transport.withIsolatedTransport(policies: policies) { networking in
            var request = URLRequest(url: server.url("/never"))
            request.timeoutInterval = 0.5
            return await urlError { try await networking(request) }
        }
        #expect(ownError?.code == .timedOut, "\(String(describing: ownError))")
    }

    @Test(arguments: TransportKind.configured)
    func refusedConnectionIsCannotConnect(_ transport: TransportKind) async throws {
        let refusing = try await RefusingPort.open()
        do {
            _ = try await transport.send(URLRequest(url: refusing.url("/get")))
            Issue.record("expected a refused connection")
        } catch let error as URLError {
            #expect(error.code == .cannotConnectToHost)
        }
        try await refusing.close()
    }

    @Test(arguments: TransportKind.configured)
    func cancellingTheTaskCancelsTheTransfer(_ transport: TransportKind) async throws {
        let server = try sharedServer()
        // The server never answers and the timeout outlasts the time limit: only the cancel
        // can end the call, so one that ignored it hangs into the limit.
        let task = Task { try await transport.send("GET", "/never", on: server, timeout: TestRun.serverHoldSeconds) }
        try await Task.sleep(for: .milliseconds(200))
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("expected cancellation")
        } catch let error as URLError {
            #expect(error.code == .cancelled)
        }
    }

    @Test(arguments: TransportKind.configured)
    func alreadyCancelledTasksSendNothing(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await transport.send("GET", "/get", on: server)
        }
        await #expect(throws: URLError.self) { try await task.value }
        #expect(server.requestCount == 0)
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured, ["a\r\nX-Injected: 1", "a\nb", "a\u{0}b"])
    func controlCharactersInHeadersAreRefusedBeforeSending(_ transport: TransportKind, value: String) async throws {
        let server = try await TestServer.start()
        var request = URLRequest(url: server.url("/get"))
        request.allHTTPHeaderFields = ["X-Bad": value]
        await #expect {
            try await transport.send(request)
        } throws: { error in
            guard case .invalidHeader(name: "X-Bad", _) = error as? RequestError else { return false }
            return true
        }
        #expect(server.requestCount == 0)
        #expect(server.acceptedConnectionCount == 0)
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func unsupportedSchemeIsUnsupportedURL(_ transport: TransportKind) async throws {
        do {
            _ = try await transport.send(URLRequest(url: URL(string: "gopher://127.0.0.1:1/file")!))
            Issue.record("expected unsupportedURL")
        } catch let error as URLError {
            #expect(error.code == .unsupportedURL)
        }
    }
}

/// Timeouts at the edges: FoundationNetworking converts them to whole milliseconds in an `Int`
/// and traps on what does not fit, so both transports clamp them or refuse them first.
@Suite(.testServer) struct TransportTimeoutValueTests {
    @Test(arguments: TransportKind.configured, [1e300, .infinity] as [TimeInterval])
    func timeoutsTooLongToExpressAreClamped(_ transport: TransportKind, interval: TimeInterval) async throws {
        let (_, response) = try await transport.send("GET", "/get", on: try sharedServer(), timeout: interval)
        #expect(response.statusCode == 200)
    }

    /// 0 is URLSession's "use the default".
    @Test(arguments: TransportKind.configured)
    func aZeroTimeoutIsTheDefault(_ transport: TransportKind) async throws {
        let (_, response) = try await transport.send("GET", "/delay/0.2", on: try sharedServer(), timeout: 0)
        #expect(response.statusCode == 200)
    }

    @Test(arguments: TransportKind.configured, [-1, .nan] as [TimeInterval])
    func negativeOrNaNTimeoutsAreRefusedBeforeSending(_ transport: TransportKind, interval: TimeInterval) async throws {
        let server = try await TestServer.start()
        await #expect {
            _ = try await transport.send("GET", "/get", on: server, timeout: interval)
        } throws: { error in
            guard case .invalidTimeout = error as? RequestError else { return false }
            return true
        }
        #expect(server.acceptedConnectionCount == 0)
        try await server.shutdown()
    }

    /// FoundationNetworking counts timeouts in whole seconds, truncating: alone it times 0.5 s
    /// out at once and 1.5 s after one second. Both transports honour the fraction. Timed in a
    /// process of its own, where the hundreds of tests running beside it cannot delay it.
    @Test(arguments: TransportKind.configured)
    func fractionalTimeoutsAreHonoured(_ transport: TransportKind) async throws {
        let outcome = try await ChildProcess.run("fractionalTimeouts", transport: transport)
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
    }

    @Test(arguments: TransportKind.configured, [.infinity, .nan] as [TimeInterval])
    func transportTimeoutsBeyondTheLongestMeanNoLimit(_ transport: TransportKind, interval: TimeInterval) async throws {
        var policies = Policies()
        policies.totalDeadline = interval
        policies.idleTimeout = interval
        if transport == .curl { policies.connectTimeout = interval }
        let server = try sharedServer()
        let (_, response) = try await transport.withIsolatedTransport(policies: policies) { networking in
            try await networking(URLRequest(url: server.url("/get")))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}

/// Tests that count connections or read the last request, each on a server of its own.
@Suite(.timeLimit(.minutes(5))) struct TransportConnectionTests {
    /// A request waiting for a connection is not exempt from its timeout: it fails once the
    /// timeout passes, as with URLSession, not when a connection finally frees up.
    @Test(arguments: TransportKind.configured)
    func waitingForAConnectionCountsAgainstTheTimeout(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        var curl = CurlTransport.Configuration()
        curl.maximumConnectionsPerHost = 1
        let urlSession = URLSessionTransport.Configuration(maximumConnectionsPerHost: 1)
        try await transport.withIsolatedTransport(curl: curl, urlSession: urlSession) { networking in
            // The only connection, held by a request the server never answers.
            var holding = URLRequest(url: server.url("/never"))
            holding.timeoutInterval = 600
            let holder = Task { try await networking(holding) }
            try #require(await eventually { server.requestCount == 1 })

            var queuing = URLRequest(url: server.url("/get"))
            queuing.timeoutInterval = 1
            let queued = queuing
            let code = try await withThrowingTaskGroup(of: URLError.Code?.self) { group in
                group.addTask {
                    do {
                        _ = try await networking(queued)
                        return nil
                    } catch let error as URLError {
                        return error.code
                    }
                }
                // Only a bound on a hang: the timeout is 1 s, and the held connection never
                // frees up, so a transport that waited for it instead ends here.
                group.addTask {
                    try await Task.sleep(for: TestRun.hangLimit)
                    throw CancellationError()
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            #expect(code == .timedOut)
            // It never reached the server: it was waiting for the held connection.
            #expect(server.requestCount == 1)
            #expect(server.acceptedConnectionCount == 1)
            holder.cancel()
            _ = try? await holder.value
        }
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func sequentialRequestsReuseOneConnection(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        try await transport.withIsolatedTransport { networking in
            for index in 0..<5 {
                let (_, response) = try await networking(URLRequest(url: server.url("/get?i=\(index)")))
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
            }
        }
        #expect(server.requestCount == 5)
        #expect(server.acceptedConnectionCount == 1)
        try await server.shutdown()
    }

    @Test(arguments: TransportKind.configured)
    func theServerRecordsWhatWasSent(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        _ = try await transport.send("PUT", "/anything/record?x=1", on: server,
                                     headers: ["X-Trace": "abc", "Content-Type": "text/plain"], body: Data("hello".utf8))
        let recorded = try #require(server.lastRequest)
        #expect(recorded.method == "PUT")
        #expect(recorded.path == "/anything/record")
        #expect(recorded.query == "x=1")
        #expect(recorded.value(for: "x-trace") == "abc")
        #expect(recorded.body == Data("hello".utf8))
        try await server.shutdown()
    }
}

/// The `URLError` `operation` fails with; nil when it succeeds or fails otherwise.
private func urlError(_ operation: () async throws -> (Data, URLResponse)) async -> URLError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error as? URLError
    }
}

@Suite(.testServer) struct TransportConnectTimeoutTests {
    @Test(.enabled(if: TransportKind.configured.contains(.urlSession)))
    func urlSessionRefusesAConnectTimeoutBeforeSendingAnything() async throws {
        var policies = Policies()
        policies.connectTimeout = 5
        // A server of its own: the shared one counts the other tests' requests too.
        let server = try await TestServer.start()
        let error = await #expect(throws: RequestError.self) {
            try await TransportKind.urlSession.withIsolatedTransport(policies: policies) { networking in
                try await networking(URLRequest(url: server.url("/get")))
            }
        }
        #expect(error == .unsupportedOption(
            "bound connecting alone (Policies.connectTimeout)", transport: "URLSessionTransport", supportedBy: "CurlTransport"
        ))
        #expect(server.requestCount == 0)
        try await server.shutdown()
    }

    @Test(.enabled(if: TransportKind.configured.contains(.curl)))
    func curlSendsUnderAConnectTimeout() async throws {
        var policies = Policies()
        policies.connectTimeout = 5
        let server = try sharedServer()
        let (_, response) = try await TransportKind.curl.withIsolatedTransport(policies: policies) { networking in
            try await networking(URLRequest(url: server.url("/get")))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }
}
