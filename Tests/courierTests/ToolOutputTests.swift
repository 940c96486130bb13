import CourierTestServer
import Foundation
import Testing

/// What the tool does when its standard streams cannot be used.
@Suite struct ToolOutputTests {
    /// `courier request URL | head -c 10` with a body far larger than the pipe's buffer: the
    /// tool is blocked in a write when the reader goes away.
    @Test(arguments: ["curl", "urlsession"])
    func closedStdoutEndsWithStatusTwentyThreeAndNoMessage(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/bytes/1000000?seed=5").absoluteString
        let result = try await CourierToolProcess.runIntoClosedPipe(["request", "--transport", transport, url], readBytes: 10)
        #expect(result.reason == .exit, "ended by signal \(result.status)")
        #expect(result.status == 23)
        #expect(result.read == TestServer.deterministicBytes(count: 1_000_000, seed: 5).prefix(10))
        #expect(result.stderr.isEmpty, "\(result.stderrText)")
    }

    /// The reader is gone before the first write.
    @Test func stdoutClosedBeforeTheFirstWrite() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.runIntoClosedPipe(["request", "-i", server.url("/bytes/16").absoluteString], readBytes: 0)
        #expect(result.reason == .exit, "ended by signal \(result.status)")
        #expect(result.status == 23)
        #expect(result.stderr.isEmpty, "\(result.stderrText)")
    }

    @Test func helpIntoAClosedPipe() async throws {
        let result = try await CourierToolProcess.runIntoClosedPipe(["request", "--help"], readBytes: 0)
        #expect(result.reason == .exit, "ended by signal \(result.status)")
        #expect(result.status == 23)
        #expect(result.stderr.isEmpty, "\(result.stderrText)")
    }

    /// `-d @-` reads stdin; one that cannot be read is a failed request, not a trap.
    @Test func unreadableStdinExitsTwentySixWithOneLine() async throws {
        let directory = try #require(FileHandle(forReadingAtPath: FileManager.default.temporaryDirectory.path))
        defer { try? directory.close() }
        let result = try await CourierToolProcess.run(["request", "-d", "@-", "http://127.0.0.1:1/anything"], standardInput: directory)
        #expect(result.status == 26)
        #expect(result.stderrLines == ["courier: POST http://127.0.0.1:1/anything: cannot read the request body: Is a directory"])
    }
}
