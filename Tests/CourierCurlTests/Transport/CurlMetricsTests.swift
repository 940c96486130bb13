#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// `CurlResponse.metrics` against real exchanges on 127.0.0.1: each value is checked against
/// what the test knows of the exchange (a fresh or a kept connection, a server that waits
/// before its head, the bytes it sent), so a value read from the wrong info, stale from the
/// handle's previous transfer, or converted in the wrong unit fails here.
@Suite("CurlTransport metrics")
struct CurlMetricsTests {
    /// The phases end in libcurl's order, each measured from the start of the exchange.
    private func expectOrdered(_ metrics: ExchangeMetrics, sourceLocation: SourceLocation = #_sourceLocation) {
        let phases = [metrics.nameLookup, metrics.connect, metrics.secureConnect, metrics.requestSent, metrics.firstByte, metrics.total]
            .compactMap { $0 }
        #expect(phases == phases.sorted(), "\(metrics)", sourceLocation: sourceLocation)
    }

    @Test func aNewConnectionIsTimedAndTheSecondRequestReusesIt() async throws {
        try await withCurlTransport { server, transport in
            let started = ContinuousClock.now
            let first = try await transport.response(for: request(server.url("/get")))
            let elapsed = ContinuousClock.now - started
            let metrics = first.metrics
            #expect(metrics.connectionReused == false)
            let nameLookup = try #require(metrics.nameLookup)
            let connect = try #require(metrics.connect)
            let requestSent = try #require(metrics.requestSent)
            let firstByte = try #require(metrics.firstByte)
            let total = try #require(metrics.total)
            #expect(connect > .zero)
            #expect(total >= firstByte && firstByte >= requestSent && requestSent >= connect && connect >= nameLookup)
            // libcurl's whole cannot be longer than the call around it, so a unit error shows,
            // however slowly a loaded machine ran the exchange.
            #expect(total <= elapsed, "libcurl measured \(total), the call took \(elapsed)")
            #expect(metrics.secureConnect == nil, "plain HTTP has no TLS handshake")
            if Curl.features.versionNumber < 0x08_06_00 {
                #expect(metrics.queued == nil, "libcurl \(Curl.version) does not measure it")
            }
            // Asked for by number whatever the headers were, so the library that runs decides.
            let easy = try Curl.easyInit()
            defer { Curl.easyCleanup(easy) }
            let info = Curl.transferInfo(easy)
            #expect((info.queued != nil) == (Curl.features.versionNumber >= 0x08_06_00), "libcurl \(Curl.version)")
            #expect(metrics.remoteAddress == "127.0.0.1:\(server.port)")
            let local = try #require(metrics.localAddress)
            #expect(local.hasPrefix("127.0.0.1:"))
            #expect(Int(local.dropFirst("127.0.0.1:".count)).map { $0 > 0 && $0 != server.port } == true, "\(local)")
            #expect(metrics.redirects.isEmpty)

            let second = try await transport.response(for: request(server.url("/get")))
            #expect(server.acceptedConnectionCount == 1)
            #expect(second.metrics.connectionReused == true)
            // Nothing was connected for this exchange; a value here would be the first's.
            #expect(second.metrics.connect == nil)
            #expect(second.metrics.remoteAddress == "127.0.0.1:\(server.port)")
            #expect(second.metrics.localAddress == local)
            #expect(second.metrics.total != nil)
            expectOrdered(second.metrics)
        }
    }

    @Test func anIPv6AddressIsWrittenInBrackets() async throws {
        let server = try await TestServer.start(host: "::1")
        let transport = try CurlTransport()
        let metrics: ExchangeMetrics
        do {
            metrics = try await transport.response(for: request(server.url("/get"))).metrics
        } catch {
            await transport.shutdown()
            try await server.shutdown()
            throw error
        }
        await transport.shutdown()
        try await server.shutdown()
        #expect(metrics.remoteAddress == "[::1]:\(server.port)")
        let local = try #require(metrics.localAddress)
        #expect(local.hasPrefix("[::1]:") && local != "[::1]:\(server.port)", "\(local)")
    }

    @Test func metricsSwitchedOffLeaveOnlyTheCountOfDecodedBytes() async throws {
        #expect(CurlTransport.Configuration().recordsMetrics, "metrics are read unless switched off")
        var configuration = CurlTransport.Configuration()
        configuration.recordsMetrics = false
        try await withCurlTransport(configuration) { server, transport in
            let response = try await transport.response(for: request(server.url("/get")))
            var counted = ExchangeMetrics()
            counted.decodedBodyBytes = response.body.count
            #expect(!response.body.isEmpty)
            #expect(response.metrics == counted)

            // Through the policy layers, a redirect still leaves one entry per hop.
            let (data, head) = try await transport.exchange(request(server.url("/redirect/2")))
            #expect(head.statusCode == 200)
            #expect(head.metrics.total == nil && head.metrics.remoteAddress == nil)
            #expect(head.metrics.decodedBodyBytes == data.count)
            #expect(head.metrics.redirects.count == 2)
            #expect(head.metrics.redirects.allSatisfy { $0.total == nil && $0.connectionReused == nil })
        }
    }

    @Test func aServerThatDelaysItsHeadDelaysTheFirstByte() async throws {
        try await withCurlTransport { server, transport in
            let metrics = try await transport.response(for: request(server.url("/delay/0.3"))).metrics
            let requestSent = try #require(metrics.requestSent)
            let firstByte = try #require(metrics.firstByte)
            let total = try #require(metrics.total)
            #expect(firstByte >= .milliseconds(300))
            #expect(firstByte - requestSent >= .milliseconds(290), "the request went out before the server waited")
            #expect(total >= firstByte)
            expectOrdered(metrics)
        }
    }

    @Test func bytesAreCountedBothWays() async throws {
        try await withCurlTransport { server, transport in
            let body = String(repeating: "a", count: 10_000)
            let response = try await transport.response(for: request(server.url("/anything"), method: "POST", body: body))
            let metrics = response.metrics
            let requestBytes = try #require(metrics.requestBytes)
            // The head is a few hundred bytes; the body must be counted once, not missing or twice.
            #expect(requestBytes > 10_000 && requestBytes < 12_000, "\(requestBytes)")
            let headerBytes = try #require(metrics.responseHeaderBytes)
            let head = try #require(response.head.headerFields.headBlock).count
            #expect(headerBytes == head, "\(headerBytes) counted, \(head) received")
            #expect(metrics.decodedBodyBytes == response.body.count)
            #expect(metrics.responseBodyBytes == response.body.count, "an identity body is the same on the wire")
            #expect(response.body.count > 10_000)
        }
    }

    @Test func anEncodedBodyIsCountedOnTheWireAndDecoded() async throws {
        try await withCurlTransport { server, transport in
            let response = try await transport.response(for: request(server.url("/gzip")))
            #expect(response.value(forHTTPHeaderField: "Content-Encoding") == "gzip")
            let wire = try #require(response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init))
            #expect(response.metrics.responseBodyBytes == wire)
            #expect(response.metrics.decodedBodyBytes == response.body.count)
            #expect(response.body.count != wire)
        }
    }

    @Test func anEmptyBodyCountsZeroBytes() async throws {
        try await withCurlTransport { server, transport in
            // A response with no body is a body count of 0, not a missing one.
            let response = try await transport.response(for: request(server.url("/status/204")))
            #expect(response.metrics.decodedBodyBytes == 0)
            #expect(response.metrics.responseBodyBytes == 0)
            #expect(response.metrics.firstByte != nil)
        }
    }

    @Test func aTLSHandshakeIsTimedOnANewConnectionOnly() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            var configuration = CurlTransport.Configuration()
            configuration.caBundlePath = files.caBundlePath
            let transport = try CurlTransport(configuration: configuration)
            do {
                try await checkTLS(transport, server)
                await transport.shutdown()
            } catch {
                await transport.shutdown()
                throw error
            }
        }
    }

    private func checkTLS(_ transport: CurlTransport, _ server: HTTPSTestServer) async throws {
        let first = try await transport.response(for: request(server.url("/get"))).metrics
        #expect(first.connectionReused == false)
        let connect = try #require(first.connect)
        let secureConnect = try #require(first.secureConnect)
        #expect(secureConnect > connect)
        #expect(first.remoteAddress == "127.0.0.1:\(server.port)")
        expectOrdered(first)

        let second = try await transport.response(for: request(server.url("/get"))).metrics
        #expect(second.connectionReused == true)
        #expect(second.secureConnect == nil)
    }
}
