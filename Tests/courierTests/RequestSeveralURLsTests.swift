import CourierTestServer
import Foundation
import Testing

/// `courier request URL URL…`: every URL in turn over one transport, as curl does.
@Suite struct RequestSeveralURLsTests {
    /// The second request reuses the connection the first opened: curl's `%{num_connects}` is
    /// 1 and then 0.
    @Test func aSecondURLReusesTheFirstOnesConnection() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", "curl", "-w", "|%{http_code} %{num_connects}\\n",
            server.url("/bytes/3?seed=1").absoluteString, server.url("/bytes/4?seed=2").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        var expected = TestServer.deterministicBytes(count: 3, seed: 1)
        expected.append(Data("|200 1\n".utf8))
        expected.append(TestServer.deterministicBytes(count: 4, seed: 2))
        expected.append(Data("|200 0\n".utf8))
        #expect(result.stdout == expected, "\(result.stdoutText.debugDescription)")
    }

    /// A failed URL does not stop the ones after it, and the exit status is the failure's.
    @Test(arguments: ["curl", "urlsession"])
    func aFailureInTheMiddleLeavesTheRestSent(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "--fail", "-w", "%{http_code}\\n",
            server.url("/status/200").absoluteString, server.url("/status/404").absoluteString,
            server.url("/status/204").absoluteString,
        ])
        #expect(result.status == 22, "\(result.stderrText)")
        #expect(result.stdoutText == "200\n404\n204\n", "\(result.stdoutText.debugDescription)")
        #expect(result.stderrText.contains("404"), "\(result.stderrText)")
    }

    @Test func outputTakesOneURL() async throws {
        let result = try await CourierToolProcess.run([
            "request", "-o", "/dev/null", "http://127.0.0.1:1/a", "http://127.0.0.1:1/b",
        ])
        #expect(result.status == 64)
        #expect(result.stderrText.contains("give one URL"), "\(result.stderrText)")
    }
}
