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
/// reach the caller on both engines before the server has sent the bomb's end, however long the
/// engine keeps decoding.
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

    /// A bomb whose wire form (~64 MiB) outgrows every socket buffer between the server and the
    /// decoder, so that the server sends its end only as the decoding nears it: 64 GiB of
    /// zeros in gzip (about a minute of decoding for libcurl), 2 TiB in zstd (32 bytes a MiB).
    static func bombMebibytes(_ encoding: String) -> Int {
        encoding == "zstd" ? 2 << 20 : 64 << 10
    }
}

/// The child-process halves of ``TransportBombTimingTests``. The error arrives in about 0.2 s;
/// decoding a bomb takes libcurl a minute or more, and the server sends the bomb's last byte
/// only as the decoding nears its end. So an answer that
/// arrives while the server has not finished sending the body did not wait for the decoding:
/// an order of events, which holds on a busy machine and under a sanitizer alike.
extension ChildProcessEntryPoints {
    private static var bombEncoding: String {
        ProcessInfo.processInfo.environment[TransportBombTimingTests.encodingVariable] ?? "gzip"
    }

    /// Sends `request` and returns its error, with the bodies `server` had sent to their end
    /// when it arrived.
    private func failure(_ networking: Networking, _ request: URLRequest, from server: TestServer) async -> (URLError?, Int) {
        do {
            _ = try await networking(request)
            return (nil, server.finishedBodyCount)
        } catch {
            return (error as? URLError, server.finishedBodyCount)
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
        let request = URLRequest(url: server.url("/bomb/\(encoding)/\(TransportBombTimingTests.bombMebibytes(encoding))"))
        let (error, finishedBeforeTheError) = try await transport.withIsolatedTransport(policies: policies) { networking in
            await failure(networking, request, from: server)
        }
        #expect(error?.code == .dataLengthExceedsMaximum, "\(String(describing: error))")
        #expect(finishedBeforeTheError == 0, "the error waited until the server had sent the whole bomb")
        // The transport's shutdown does not wait for the engine to finish decoding either.
        #expect(server.finishedBodyCount == 0, "the shutdown waited until the server had sent the whole bomb")
    }

    @Test(.enabled(if: ChildProcess.current == "bombRefusedAtItsHead", "runs only in a child process"))
    func bombRefusedAtItsHead() async throws {
        let server = try await TestServer.start()
        let request = URLRequest(url: server.url("/bomb/\(Self.bombEncoding)/\(TransportBombTimingTests.bombMebibytes(Self.bombEncoding))"))
        let (error, finishedBeforeTheRefusal) = try await TransportKind.urlSession.withIsolatedTransport(
            urlSession: .init(contentDecoding: .identityOnly)
        ) { networking in
            await failure(networking, request, from: server)
        }
        #expect(error?.code == .cannotDecodeContentData, "\(String(describing: error))")
        #expect(finishedBeforeTheRefusal == 0, "the refusal waited until the server had sent the whole bomb")
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
        let request = URLRequest(url: server.url("/bomb/gzip/\(TransportBombTimingTests.bombMebibytes("gzip"))"))
        // A reader that falls behind pauses a curl transfer, and what one read of a bomb decodes
        // to while paused passes libcurl's 64 MiB for it, which ends the body before the
        // deadline (the bomb's own protection): a buffer the reader never fills keeps it going.
        var curl = CurlTransport.Configuration()
        curl.policies = policies
        curl.streamBufferSize = 256 << 20
        let (error, elapsed, received, finished) = try await transport.withIsolatedStreamingTransport(policies: policies, curl: curl) { streaming in
            let started = ContinuousClock.now
            var received = 0
            do {
                let (body, _) = try await streaming(request, nil)
                for try await chunk in body { received += chunk.count }
                return (nil as URLError?, ContinuousClock.now - started, received, server.finishedBodyCount)
            } catch {
                return (error as? URLError, ContinuousClock.now - started, received, server.finishedBodyCount)
            }
        }
        #expect(error?.code == .timedOut, "\(String(describing: error)): \(error?.localizedDescription ?? "")")
        #expect(error?.localizedDescription.contains("the total deadline of 0.5 s passed") == true)
        // The bomb was still being decoded when the deadline passed, or this proves nothing.
        #expect(received > 0 && received < TransportBombTimingTests.bombMebibytes("gzip") << 20, "\(received) bytes arrived")
        #expect(finished == 0, "the deadline waited until the server had sent the whole bomb")
        // Not early: a lower bound a slow machine only makes easier to meet.
        #expect(elapsed >= .milliseconds(500))
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
