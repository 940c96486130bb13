#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
import Testing

/// The tests ``ChildProcess`` runs in a process of their own. In the parent they are reported
/// as skipped ("runs only in a child process"); their parent tests in
/// ``TransportProcessIsolationTests`` are what runs and asserts the outcome.
@Suite struct ChildProcessEntryPoints {
    /// The environment already holds `http_proxy`, `https_proxy`, `ALL_PROXY` and their
    /// variants pointing at the parent's trap server; the parent checks what the trap saw
    /// (see ``TransportKind/obeysProxyEnvironment``).
    @Test(.enabled(if: ChildProcess.current == "proxyVariables", "runs only in a child process"),
          arguments: TransportKind.configured)
    func proxyVariables(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        let result = try await transport.withIsolatedTransport { networking in
            await Result { try await networking(URLRequest(url: server.url("/get"))) }
        }
        // The trap is a TestServer too: it reads the absolute-form target as `/get` and echoes.
        let (data, response) = try result.get()
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data).path == "/get")
        #expect(server.requestCount == (transport.obeysProxyEnvironment ? 0 : 1))
        try await server.shutdown()
    }

    /// The environment holds `http_proxy` pointing at the parent's trap server, and the
    /// transport asks for `.environment`: only then does libcurl read it. Port 9 is closed, so
    /// only the proxy can answer.
    @Test(.enabled(if: ChildProcess.current == "proxyFromEnvironment", "runs only in a child process"))
    func proxyFromEnvironment() async throws {
        var curl = CurlTransport.Configuration()
        curl.proxy = .environment
        let (data, response) = try await TransportKind.curl.withIsolatedTransport(curl: curl) { networking in
            try await networking(URLRequest(url: URL(string: "http://127.0.0.1:9/get?via=environment")!))
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try echo(data).query == "via=environment")
    }

    /// 500 requests in flight to `/never`, cancelled: every socket and handle must be released.
    @Test(.enabled(if: ChildProcess.current == "cancelledRequestsReleaseDescriptors", "runs only in a child process"),
          arguments: TransportKind.configured)
    func cancelledRequestsReleaseDescriptors(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        let beforeWarmUp = openFileDescriptorCount()
        // Warm up first: descriptors Foundation creates lazily once per process (dispatch's
        // epoll, for one) belong in the baseline; the warm-up transport's own must go.
        try await transport.withIsolatedTransport { networking in
            _ = try await networking(URLRequest(url: server.url("/get")))
        }
        // Not a check, so a short wait: descriptors still open after it only raise the
        // baseline, which makes the bound below looser, never a pass into a failure.
        _ = await eventually(within: .seconds(2)) { openFileDescriptorCount() <= beforeWarmUp }
        let baseline = openFileDescriptorCount()
        let baselineTargets = Set(openFileDescriptorTargets())
        let (codes, connections) = try await transport.withIsolatedTransport { networking in
            let tasks = (0..<500).map { index in
                Task { try await urlErrorCode(of: networking, URLRequest(url: server.url("/never?i=\(index)"))) }
            }
            // In flight: the warm-up plus the per-host limit's worth of requests have arrived
            // and wait for answers that never come; the rest queue in the transport.
            #expect(await eventually { server.requestCount >= 1 + 6 })
            let connections = server.acceptedConnectionCount
            for task in tasks { task.cancel() }
            var codes: [URLError.Code?] = []
            for task in tasks { codes.append(try await task.value) }
            return (codes, connections)
        }
        #expect(codes.allSatisfy { $0 == .cancelled })
        #expect(connections >= 2)
        // The server shares this process: its side of a `/never` connection may stay open
        // until shutdown (NIO's pipelining handler stops reading while a response is pending,
        // so it does not always see the client leave). Shutting it down first leaves only the
        // transport's descriptors to count; the listener it closes makes the bound one lower.
        try await server.shutdown()
        let settled = await eventually { openFileDescriptorCount() <= baseline - 1 }
        let detail: Comment = """
            baseline \(baseline) - 1, now \(openFileDescriptorCount()); \
            new: \(openFileDescriptorTargets().filter { !baselineTargets.contains($0) }), \
            gone: \(baselineTargets.subtracting(openFileDescriptorTargets()).sorted())
            """
        #expect(settled, detail)
    }
}
