#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// CurlTransport over HTTP/2, against nginx (`HTTP2TestProxy`) speaking h2 over TLS and h2c
/// in front of the in-process test server, so the test server's routes answer over HTTP/2.
/// One test at a time: each makes certificates and starts servers, and all at once they took
/// the CPU from other suites' tests that time what they wait for.
@Suite("CurlTransport over HTTP/2 on loopback", .serialized)
struct CurlTransportHTTP2Tests {
    /// Runs `body` with a test server, nginx in front of it and a transport that trusts the
    /// test CA, configured further by `configure`; stops all three afterwards.
    /// `count` requests to a path the server never answers, each ending with its error's code
    /// once the returned task is cancelled.
    private func neverAnswered(_ count: Int, through transport: CurlTransport, at proxy: HTTP2TestProxy) -> Task<[URLError.Code?], Never> {
        Task {
            await withTaskGroup(of: URLError.Code?.self) { group in
                for index in 0..<count {
                    group.addTask { await urlErrorCode { _ = try await transport.exchange(request(proxy.tlsURL("/never?i=\(index)"))) } }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
        }
    }

    private func withHTTP2<T>(
        _ configure: (inout CurlTransport.Configuration) -> Void = { _ in },
        _ body: (HTTP2TestProxy, CurlTransport) async throws -> T
    ) async throws -> T {
        let server = try await TestServer.start()
        do {
            let result = try await withHTTP2Proxy(upstreamPort: server.port) { proxy, files in
                var configuration = CurlTransport.Configuration()
                configuration.caBundlePath = files.caBundlePath
                configure(&configuration)
                let transport = try CurlTransport(configuration: configuration)
                do {
                    let result = try await body(proxy, transport)
                    await transport.shutdown()
                    return result
                } catch {
                    await transport.shutdown()
                    throw error
                }
            }
            try await server.shutdown()
            return result
        } catch {
            try? await server.shutdown()
            throw error
        }
    }

    // MARK: Versions

    @Test func theDefaultSpeaksHTTP2OverTLSByALPNAndReportsIt() async throws {
        try await withHTTP2 { proxy, transport in
            let response = try await transport.response(for: request(proxy.tlsURL("/get?a=1")))
            #expect(response.statusCode == 200)
            #expect(response.httpVersion == "HTTP/2")
            #expect(response.head.httpVersion == .http2)
            let (data, head) = try await transport.exchange(request(proxy.tlsURL("/get?a=1")))
            #expect(head.httpVersion == .http2)
            #expect(head.metrics.secureConnect != nil || head.metrics.connectionReused == true)
            #expect(try JSONDecoder().decode(Echo.self, from: data).args["a"] == ["1"])
            let log = await proxy.accessLog(atLeast: 2)
            #expect(log.count >= 2 && log.allSatisfy { $0.contains("HTTP/2.0") }, "\(log)")
        }
    }

    @Test func http1_1OnlySpeaksHTTP1OverTLS() async throws {
        try await withHTTP2({ $0.httpVersion = .http1_1 }) { proxy, transport in
            let response = try await transport.response(for: request(proxy.tlsURL("/get")))
            #expect(response.statusCode == 200)
            #expect(response.httpVersion == "HTTP/1.1")
            let log = await proxy.accessLog(atLeast: 1)
            #expect(!log.isEmpty && log.allSatisfy { $0.contains("HTTP/1.1") }, "\(log)")
        }
    }

    @Test func priorKnowledgeSpeaksHTTP2OverCleartext() async throws {
        try await withHTTP2({ $0.httpVersion = .http2PriorKnowledge }) { proxy, transport in
            let (data, head) = try await transport.exchange(request(proxy.cleartextURL("/get?h2c=yes")))
            #expect(head.statusCode == 200)
            #expect(head.httpVersion == .http2)
            #expect(head.metrics.secureConnect == nil)
            #expect(try JSONDecoder().decode(Echo.self, from: data).args["h2c"] == ["yes"])
        }
    }

    /// One transport, one after another and then all at once, to an h2c server: every request
    /// is answered over HTTP/2. libcurl 7.88 fails every request after a connection's first
    /// with "Error in the HTTP2 framing layer", so there each request must have a connection of
    /// its own; a later libcurl shares them.
    @Test func priorKnowledgeAnswersEveryRequestInTurnAndAtOnce() async throws {
        try await withHTTP2({ $0.httpVersion = .http2PriorKnowledge }) { proxy, transport in
            var heads: [ResponseHead] = []
            for index in 0..<3 {
                let (data, head) = try await transport.exchange(request(proxy.cleartextURL("/get?turn=\(index)")))
                #expect(try JSONDecoder().decode(Echo.self, from: data).args["turn"] == ["\(index)"])
                heads.append(head)
            }
            heads += try await withThrowingTaskGroup(of: ResponseHead.self) { group in
                for index in 0..<8 {
                    group.addTask { try await transport.exchange(request(proxy.cleartextURL("/get?burst=\(index)"))).1 }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(heads.count == 11)
            #expect(heads.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http2 })
            if !Curl.features.reusesCleartextHTTP2Connections {
                #expect(heads.allSatisfy { $0.metrics.connectionReused == false })
            }
            let log = await proxy.accessLog(atLeast: 11)
            #expect(log.count >= 11 && log.allSatisfy { $0.contains("HTTP/2.0") }, "\(log)")
        }
    }

    /// 20 requests in turn, then 16 at once, over h2c. From libcurl 8.0 all go over the one
    /// connection the first opened, and the metrics of every later one say it was reused; on
    /// 7.x each has a connection of its own (the guard above), and none says reused. nginx's
    /// connection serials tell the two apart from the server's side.
    @Test func h2cSharesOneConnectionWhereLibcurlCanAndOpensOneEachWhereItCannot() async throws {
        try await withHTTP2({ $0.httpVersion = .http2PriorKnowledge }) { proxy, transport in
            var heads: [ResponseHead] = []
            for index in 0..<20 {
                heads.append(try await transport.exchange(request(proxy.cleartextURL("/get?turn=\(index)"))).1)
            }
            heads += try await withThrowingTaskGroup(of: ResponseHead.self) { group in
                for index in 0..<16 {
                    group.addTask { try await transport.exchange(request(proxy.cleartextURL("/get?burst=\(index)"))).1 }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(heads.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http2 })
            let log = await proxy.accessLog(atLeast: 36)
            let connections = Set(log.compactMap { $0.split(separator: " ").first })
            #expect(log.count == 36 && log.allSatisfy { $0.contains("HTTP/2.0") }, "\(log)")
            if Curl.features.reusesCleartextHTTP2Connections {
                #expect(connections.count == 1, "\(log)")
                #expect(heads[0].metrics.connectionReused == false)
                #expect(heads.dropFirst().allSatisfy { $0.metrics.connectionReused == true })
            } else {
                #expect(connections.count == 36, "\(log)")
                #expect(heads.allSatisfy { $0.metrics.connectionReused == false })
            }
        }
    }

    @Test func h2cConnectionsAreSharedOnlyWhereLibcurlCanReuseThem() {
        let old = CurlFeatures(versionNumber: 0x07_58_01, zlib: true, brotli: true, zstd: true, http2: true)
        let new = CurlFeatures(versionNumber: 0x08_00_00, zlib: true, brotli: true, zstd: true, http2: true)
        let h2c = CurlTransport.HTTPVersionPreference.http2PriorKnowledge
        #expect(!h2c.reusesConnections(scheme: "http", features: old))
        #expect(!h2c.multiplexes(scheme: "http", features: old))
        #expect(!h2c.reusesConnections(scheme: "http+unix", features: old))
        #expect(h2c.reusesConnections(scheme: "https", features: old))
        #expect(h2c.reusesConnections(scheme: "https+unix", features: old))
        #expect(h2c.multiplexes(scheme: "https", features: old))
        #expect(h2c.reusesConnections(scheme: "http", features: new))
        #expect(h2c.multiplexes(scheme: "http", features: new))
        #expect(CurlTransport.HTTPVersionPreference.automatic.reusesConnections(scheme: "http", features: old))
        #expect(CurlTransport.HTTPVersionPreference.http1_1.reusesConnections(scheme: "http", features: old))
    }

    @Test func theDefaultSpeaksHTTP1OverCleartext() async throws {
        try await withCurlTransport { server, transport in
            let response = try await transport.response(for: request(server.url("/get")))
            #expect(response.httpVersion == "HTTP/1.1")
        }
    }

    @Test func http1_1OnlyToAnHTTP2OnlyPortFailsAsABadResponse() async throws {
        try await withHTTP2({ $0.httpVersion = .http1_1 }) { proxy, transport in
            let code = await urlErrorCode { _ = try await transport.data(for: request(proxy.cleartextURL("/get"))) }
            #expect(code == .badServerResponse || code == .networkConnectionLost)
        }
    }

    // MARK: Multiplexing

    /// 64 requests at once: one TLS connection, which every request but the first reuses, and
    /// nginx saw them all on the same connection.
    @Test func sixtyFourRequestsInFlightShareOneConnection() async throws {
        try await withHTTP2 { proxy, transport in
            let heads = try await withThrowingTaskGroup(of: ResponseHead.self) { group in
                for index in 0..<64 {
                    group.addTask { try await transport.exchange(request(proxy.tlsURL("/delay/0.2?i=\(index)"))).1 }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(heads.count == 64)
            #expect(heads.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http2 })
            #expect(heads.count { $0.metrics.connectionReused == false } == 1)
            #expect(heads.count { $0.metrics.connectionReused == true } == 63)
            #expect(Set(heads.compactMap(\.metrics.localAddress)).count == 1)
            let connections = Set(await proxy.accessLog(atLeast: 64).compactMap { $0.split(separator: " ").first })
            #expect(connections.count == 1, "nginx saw connections \(connections)")
        }
    }

    /// The engine queues requests beyond what libcurl can run for a host; over HTTP/2 that is
    /// the connections times the streams each carries, so with 2 connections 40 slow requests
    /// all run at once rather than 2 at a time. The server never answers them, so the state
    /// "all 40 running" lasts until the test cancels them, however slowly the machine gets there.
    @Test func requestsThatShareAConnectionAreNotQueuedBehindTheConnectionLimit() async throws {
        try await withHTTP2({ $0.maximumConnectionsPerHost = 2 }) { proxy, transport in
            let requests = neverAnswered(40, through: transport, at: proxy)
            let allRunning = await pollUntil { transport.statistics.running == 40 }
            #expect(allRunning, "\(transport.statistics)")
            #expect(transport.statistics.waiting == 0)
            requests.cancel()
            let codes = await requests.value
            #expect(codes == Array(repeating: .cancelled, count: 40))
        }
    }

    /// The streams of a burst give their easy handles back to the pool, which keeps them all
    /// for the next burst while the transport is busy, beyond the few it keeps when quiet: the
    /// second burst makes none.
    @Test func aBurstOfStreamsKeepsItsHandlesForTheNext() async throws {
        try await withHTTP2 { proxy, transport in
            for round in 0..<2 {
                let requests = neverAnswered(40, through: transport, at: proxy)
                let allRunning = await pollUntil { transport.statistics.running == 40 }
                #expect(allRunning, "round \(round): \(transport.statistics)")
                requests.cancel()
                #expect(await requests.value == Array(repeating: .cancelled, count: 40))
                let returned = await pollUntil {
                    let statistics = transport.statistics
                    return statistics.running == 0 && statistics.idleHandles == statistics.liveHandles
                }
                #expect(returned, "round \(round): \(transport.statistics)")
                #expect(transport.statistics.liveHandles == 40, "round \(round): \(transport.statistics)")
            }
        }
    }

    /// With at most 4 streams a connection, 16 slow requests at once need 4 connections,
    /// within the per-host limit.
    @Test func theStreamLimitOpensMoreConnectionsWithinThePerHostLimit() async throws {
        try await withHTTP2({ $0.maximumConcurrentStreamsPerConnection = 4 }) { proxy, transport in
            let heads = try await withThrowingTaskGroup(of: ResponseHead.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await transport.exchange(request(proxy.tlsURL("/delay/0.5"))).1 }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let opened = heads.count { $0.metrics.connectionReused == false }
            #expect((2...6).contains(opened), "opened \(opened) connections")
            #expect(Set(heads.compactMap(\.metrics.localAddress)).count == opened)
        }
    }

    // MARK: What the engine does per response, over HTTP/2

    @Test func headerFieldsOfHTTP2AreReadWhateverTheirCase() async throws {
        try await withHTTP2 { proxy, transport in
            let (_, response) = try await transport.http(request(proxy.tlsURL("/response-headers?X-Courier-Test=one")))
            #expect(response.statusCode == 200)
            #expect(response.value(forHTTPHeaderField: "X-Courier-Test") == "one")
            let raw = try await transport.response(for: request(proxy.tlsURL("/response-headers?X-Courier-Test=two")))
            #expect(raw.value(forHTTPHeaderField: "x-courier-test") == "two")
            #expect(raw.head.headerFields.contains { $0.name == "x-courier-test" })
        }
    }

    @Test func bodiesAreDecodedOverHTTP2() async throws {
        try await withHTTP2 { proxy, transport in
            let (data, head) = try await transport.exchange(request(proxy.tlsURL("/gzip")))
            #expect(head.httpVersion == .http2)
            #expect(head.headerFields["Content-Encoding"] == "gzip")
            #expect(try JSONDecoder().decode(Echo.self, from: data).path == "/gzip")
            #expect((head.metrics.responseBodyBytes ?? 0) < (head.metrics.decodedBodyBytes ?? 0))
        }
    }

    @Test func aBodyPastTheLimitFailsAndTheConnectionServesTheNextRequest() async throws {
        try await withHTTP2({ $0.policies.maximumResponseBytes = 100_000 }) { proxy, transport in
            let code = await urlErrorCode { _ = try await transport.data(for: request(proxy.tlsURL("/bytes/1000000"))) }
            #expect(code == .dataLengthExceedsMaximum)
            let (_, head) = try await transport.exchange(request(proxy.tlsURL("/get")))
            #expect(head.statusCode == 200)
            #expect(head.metrics.connectionReused == true)
        }
    }

    @Test func aStreamedBodyPausesForItsReaderAndLosesNothing() async throws {
        try await withHTTP2({ $0.streamBufferSize = 64 << 10 }) { proxy, transport in
            let size = 8 << 20
            let (body, response) = try await transport.stream(for: request(proxy.tlsURL("/bytes/\(size)")))
            #expect(response.statusCode == 200)
            try await awaitWithin {
                while transport.statistics.pausedByBackPressure == 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
            // Another stream on the same connection is answered while this one is paused.
            let (_, other) = try await transport.exchange(request(proxy.tlsURL("/get")))
            #expect(other.statusCode == 200)
            #expect(other.metrics.connectionReused == true)
            var received = Data()
            for try await chunk in body {
                received.append(chunk)
                if received.count < 1 << 20 { try await Task.sleep(for: .milliseconds(1)) }
            }
            #expect(received == DeterministicBytes.data(count: size, seed: 0))
            #expect(transport.statistics.running == 0)
        }
    }

    @Test func cancellingAStreamLeavesTheConnectionToTheOthers() async throws {
        try await withHTTP2({ $0.streamBufferSize = 64 << 10 }) { proxy, transport in
            let (body, _) = try await transport.stream(for: request(proxy.tlsURL("/infinite")))
            let reader = Task {
                var count = 0
                for try await chunk in body { count += chunk.count }
                return count
            }
            try await Task.sleep(for: .milliseconds(100))
            reader.cancel()
            _ = try? await reader.value
            let (_, head) = try await transport.exchange(request(proxy.tlsURL("/get")))
            #expect(head.statusCode == 200)
            #expect(head.metrics.connectionReused == true)
            try await awaitWithin {
                while transport.statistics.running > 0 { try await Task.sleep(for: .milliseconds(10)) }
            }
        }
    }

    @Test func uploadsOfKnownAndUnknownLengthArriveWhole() async throws {
        try await withHTTP2 { proxy, transport in
            let echo = try await transport.echo(request(proxy.tlsURL("/anything"), method: "PUT", body: "over h2"))
            #expect(echo.method == "PUT")
            #expect(echo.bodyText == "over h2")
            let payload = DeterministicBytes.data(count: 300_000, seed: 3)
            let chunks = stride(from: 0, to: payload.count, by: 10_000).map { payload[$0..<min($0 + 10_000, payload.count)] }
            let upload = RequestBody.stream(AsyncStream { continuation in
                for chunk in chunks { continuation.yield(Data(chunk)) }
                continuation.finish()
            })
            var post = request(proxy.tlsURL("/sink"), method: "POST")
            post.httpBody = nil
            let (body, response) = try await transport.stream(for: post, uploading: upload)
            #expect(response.statusCode == 200)
            let answer = try await body.collect(upTo: 1000)
            #expect(String(decoding: answer, as: UTF8.self).contains("\"bytes\":300000"))
        }
    }

    @Test func redirectsAreFollowedOverHTTP2() async throws {
        try await withHTTP2 { proxy, transport in
            let (data, head) = try await transport.exchange(request(proxy.tlsURL("/redirect/2")))
            #expect(head.statusCode == 200)
            #expect(head.httpVersion == .http2)
            #expect(head.url?.path == "/get")
            #expect(head.metrics.redirects.count == 2)
            #expect(try JSONDecoder().decode(Echo.self, from: data).path == "/get")
        }
    }

    @Test func anIdleTimeoutEndsOneStream() async throws {
        try await withHTTP2 { proxy, transport in
            // Never answered: only the idle timeout can end the stream.
            var slow = request(proxy.tlsURL("/never"))
            slow.timeoutInterval = 0.5
            let code = await urlErrorCode { _ = try await transport.data(for: slow) }
            #expect(code == .timedOut)
        }
    }
}
