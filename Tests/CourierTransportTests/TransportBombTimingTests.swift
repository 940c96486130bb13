#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
@testable import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// The answer to a compression bomb, and a deadline that passes while an engine decodes one,
/// reach the caller in bounded time on both engines, however long the engine keeps decoding.
///
/// Each runs in a process of its own (``ChildProcess``): every URLSession of a process shares
/// one FoundationNetworking work queue, and a bomb keeps it busy until libcurl has decoded the
/// whole of it, whatever was cancelled, so in a shared process it would stall every other
/// URLSession test for that long. One child at a time: each starts this whole test binary and
/// decodes for a while, and several at once starved the tests beside them of both cores.
@Suite(.serialized) struct TransportBombTimingTests {
    @Test(arguments: TransportKind.configured, ["gzip", "zstd"])
    func aBombPastTheLimitFailsWithoutWaitingForTheDecoding(_ transport: TransportKind, encoding: String) async throws {
        let outcome = try await ChildProcess.run("bombPastTheLimit", transport: transport, environment: [Self.encodingVariable: encoding])
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
    }

    @Test(.enabled(if: TransportKind.configured.contains(.urlSession)), arguments: ["gzip", "zstd"])
    func aBombRefusedAtItsHeadFailsWithoutWaitingOnURLSession(encoding: String) async throws {
        let outcome = try await ChildProcess.run("bombRefusedAtItsHead", transport: .urlSession, environment: [Self.encodingVariable: encoding])
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
    }

    @Test(arguments: TransportKind.configured)
    func theTotalDeadlineFiresOnTimeWhileTheEngineDecodes(_ transport: TransportKind) async throws {
        let outcome = try await ChildProcess.run("deadlineWhileDecoding", transport: transport)
        #expect(outcome.status == 0, "child failed:\n\(outcome.output)")
    }

    static let encodingVariable = "COURIER_BOMB_ENCODING"

    /// 64 GiB of zeros, the largest bomb the server makes (64 MiB of gzip, 2 MiB of zstd on
    /// the wire): a minute of decoding for libcurl, so an answer that waited for the decoding
    /// to end is far past the bound on the wait for the error.
    static let largestBombMebibytes = 64 << 10
}

/// The child-process halves of ``TransportBombTimingTests``. The error arrives in about 0.2 s;
/// decoding the largest bomb takes libcurl half a minute (zstd) to over a minute (gzip). The
/// upper bounds sit far from both, so only an answer that waited for the decoding reaches
/// them, and are skipped under a sanitizer, which slows the Swift side but not zlib's.
extension ChildProcessEntryPoints {
    private static var bombEncoding: String {
        ProcessInfo.processInfo.environment[TransportBombTimingTests.encodingVariable] ?? "gzip"
    }

    /// Sends `request` and returns its error and how long it took to arrive.
    private func timedFailure(_ networking: Networking, _ request: URLRequest) async -> (URLError?, Duration) {
        let started = ContinuousClock.now
        do {
            _ = try await networking(request)
            return (nil, ContinuousClock.now - started)
        } catch {
            return (error as? URLError, ContinuousClock.now - started)
        }
    }

    @Test(.enabled(if: ChildProcess.current == "bombPastTheLimit", "runs only in a child process"),
          arguments: TransportKind.configured)
    func bombPastTheLimit(_ transport: TransportKind) async throws {
        let encoding = Self.bombEncoding
        try #require(transport == .urlSession || Curl.features.contentCodings.contains(encoding))
        let server = try await TestServer.start()
        var policies = Policies()
        policies.maximumResponseBytes = 8 << 20
        let request = URLRequest(url: server.url("/bomb/\(encoding)/\(TransportBombTimingTests.largestBombMebibytes)"))
        let started = ContinuousClock.now
        let (error, elapsed) = try await transport.withIsolatedTransport(policies: policies) { networking in
            await timedFailure(networking, request)
        }
        #expect(error?.code == .dataLengthExceedsMaximum, "\(String(describing: error))")
        if !TestRun.isSanitized {
            #expect(elapsed < .seconds(10), "the error took \(elapsed)")
            // The transport's shutdown does not wait for the engine to finish decoding either.
            let shutdown = ContinuousClock.now - started - elapsed
            #expect(shutdown < .seconds(10), "the shutdown took \(shutdown)")
        }
    }

    @Test(.enabled(if: ChildProcess.current == "bombRefusedAtItsHead", "runs only in a child process"))
    func bombRefusedAtItsHead() async throws {
        let server = try await TestServer.start()
        let request = URLRequest(url: server.url("/bomb/\(Self.bombEncoding)/\(TransportBombTimingTests.largestBombMebibytes)"))
        let (error, elapsed) = try await TransportKind.urlSession.withIsolatedTransport(urlSession: .init(contentDecoding: .identityOnly)) { networking in
            await timedFailure(networking, request)
        }
        #expect(error?.code == .cannotDecodeContentData, "\(String(describing: error))")
        if !TestRun.isSanitized { #expect(elapsed < .seconds(10), "the refusal took \(elapsed)") }
    }

    /// With no body limit the engine decodes for as long as the bomb lasts; the total deadline
    /// of 0.5 s ends the read all the same: not before it passed, and long before the decoding
    /// would have ended.
    @Test(.enabled(if: ChildProcess.current == "deadlineWhileDecoding", "runs only in a child process"),
          arguments: TransportKind.configured)
    func deadlineWhileDecoding(_ transport: TransportKind) async throws {
        try #require(transport == .urlSession || Curl.features.contentCodings.contains("gzip"))
        let server = try await TestServer.start()
        var policies = Policies()
        policies.maximumResponseBytes = .max
        policies.totalDeadline = 0.5
        let request = URLRequest(url: server.url("/bomb/gzip/\(TransportBombTimingTests.largestBombMebibytes)"))
        // A reader that falls behind pauses a curl transfer, and what one read of a bomb decodes
        // to while paused passes libcurl's 64 MiB for it, which ends the body before the
        // deadline (the bomb's own protection): a buffer the reader never fills keeps it going.
        var curl = CurlTransport.Configuration()
        curl.policies = policies
        curl.streamBufferSize = 256 << 20
        let (error, elapsed, received) = try await transport.withIsolatedStreamingTransport(policies: policies, curl: curl) { streaming in
            let started = ContinuousClock.now
            var received = 0
            do {
                let (body, _) = try await streaming(request, nil)
                for try await chunk in body { received += chunk.count }
                return (nil as URLError?, ContinuousClock.now - started, received)
            } catch {
                return (error as? URLError, ContinuousClock.now - started, received)
            }
        }
        #expect(error?.code == .timedOut, "\(String(describing: error)): \(error?.localizedDescription ?? "")")
        #expect(error?.localizedDescription.contains("the total deadline of 0.5 s passed") == true)
        // The bomb was still being decoded when the deadline passed, or this proves nothing.
        #expect(received > 0 && received < TransportBombTimingTests.largestBombMebibytes << 20, "\(received) bytes arrived")
        // Not early: a lower bound a slow machine only makes easier to meet.
        #expect(elapsed >= .milliseconds(500))
        if !TestRun.isSanitized { #expect(elapsed < .seconds(10), "the deadline of 0.5 s fired after \(elapsed)") }
    }
}

extension ChildProcessEntryPoints {
    @Test(.enabled(if: ChildProcess.current == "fractionalTimeouts", "runs only in a child process"),
          arguments: TransportKind.configured)
    func fractionalTimeouts(_ transport: TransportKind) async throws {
        let server = try await TestServer.start()
        for interval in [0.25, 0.5, 1.5] as [TimeInterval] {
            let started = ContinuousClock.now
            // A server that never answers: only the timeout can end the call.
            let error = await transport.expectURLError(.timedOut, "GET", "/never", on: server, timeout: interval)
            let elapsed = ContinuousClock.now - started
            // Not early, as FoundationNetworking's truncation to whole seconds would fire it.
            #expect(elapsed >= .milliseconds(Int(interval * 1000)), "\(interval) s timed out after \(elapsed)")
            // Not a whole second late, as a whole-second timer would: in a process of its own,
            // where nothing but this request runs, and not under a sanitizer.
            if !TestRun.isSanitized {
                #expect(elapsed < .milliseconds(Int(interval * 1000) + 900), "\(interval) s timed out after \(elapsed)")
            }
            #expect(error?.localizedDescription.contains("no data received or sent for \(interval.formattedSeconds)") == true,
                    "\(String(describing: error?.localizedDescription))")
        }
        try await server.shutdown()
    }
}
