import CourierTestServer
import Foundation
import Testing

/// `courier request --retry…` with curl's meaning, on both transports, against `/flaky`.
@Suite struct RequestRetryTests {
    static let transports = ["curl", "urlsession"]

    @Test(arguments: transports)
    func retryTriesAgainAfterAFailingStatus(transport: String) async throws {
        let server = try await TestServer.start()
        let url = server.url("/flaky/a/2").absoluteString
        let result = try await CourierToolProcess.run(["request", "--retry", "2", "--retry-delay", "0.01", "--transport", transport, url])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(server.visits("a") == 3)
        #expect(result.stdout.range(of: Data("\"path\":\"/flaky/a/2\"".utf8)) != nil, "\(String(decoding: result.stdout, as: UTF8.self))")
        try await server.shutdown()
    }

    /// With -o the body streams, and a failing status is retried at its head, before a byte of
    /// it reaches the file.
    @Test(arguments: transports)
    func retryWorksWhenTheBodyStreamsToAFile(transport: String) async throws {
        let server = try await TestServer.start()
        let path = temporaryPath(".json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = server.url("/flaky/file/1?status=502").absoluteString
        let result = try await CourierToolProcess.run(["request", "--retry", "1", "--retry-delay", "0.01", "-o", path, "--transport", transport, url])
        #expect(result.status == 0, "\(result.stderrText)")
        let written = try #require(FileManager.default.contents(atPath: path))
        #expect(written.range(of: Data("\"path\":\"/flaky/file/1\"".utf8)) != nil, "\(String(decoding: written, as: UTF8.self))")
        #expect(server.visits("file") == 2)
        try await server.shutdown()
    }

    /// As curl does, whatever the method: the user asked for it on the command line.
    @Test(arguments: transports)
    func retryRetriesAPOSTAndWithoutItNothingIsRetried(transport: String) async throws {
        let server = try await TestServer.start()
        let retried = try await CourierToolProcess.run(
            ["request", "--retry", "1", "--retry-delay", "0.01", "-d", "x=1", "--transport", transport, server.url("/flaky/post/1").absoluteString]
        )
        #expect(retried.status == 0, "\(retried.stderrText)")
        #expect(server.visits("post") == 2)
        let once = try await CourierToolProcess.run(
            ["request", "-i", "--transport", transport, server.url("/flaky/once/1?retry_after=0").absoluteString]
        )
        #expect(once.status == 0, "\(once.stderrText)")
        #expect(once.stdout.starts(with: Data("HTTP/1.1 503".utf8)))
        #expect(server.visits("once") == 1)
        try await server.shutdown()
    }

    @Test(arguments: transports)
    func retryMaxTimeBeginsNoRetryWhoseWaitWouldEndPastIt(transport: String) async throws {
        let server = try await TestServer.start()
        let url = server.url("/flaky/late/1").absoluteString
        let result = try await CourierToolProcess.run(
            ["request", "-i", "--retry", "3", "--retry-delay", "5", "--retry-max-time", "0.5", "--transport", transport, url]
        )
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout.starts(with: Data("HTTP/1.1 503".utf8)))
        #expect(server.visits("late") == 1)
        try await server.shutdown()
    }

    /// curl retries a refused connection only with --retry-connrefused; the message says how
    /// many attempts were made.
    @Test(arguments: transports)
    func aRefusedConnectionIsRetriedOnlyWithRetryConnrefused(transport: String) async throws {
        let refusing = try await RefusingPort.open()
        let url = refusing.url("/get").absoluteString
        let plain = try await CourierToolProcess.run(["request", "--retry", "2", "--retry-delay", "0.01", "--transport", transport, url])
        #expect(plain.status == 7)
        #expect(!plain.stderrText.contains("attempts"), "\(plain.stderrText)")
        let retried = try await CourierToolProcess.run(
            ["request", "--retry", "2", "--retry-delay", "0.01", "--retry-connrefused", "--transport", transport, url]
        )
        #expect(retried.status == 7)
        #expect(retried.stderrText.contains("after 3 attempts"), "\(retried.stderrText)")
        try await refusing.close()
    }

    /// As curl's: the hops written are the last attempt's, and num_retries counts the others.
    @Test(arguments: transports)
    func writeOutDescribesTheLastAttemptAndCountsTheRetries(transport: String) async throws {
        let server = try await TestServer.start()
        let url = server.url("/redirect-to?url=/flaky/w/2").absoluteString
        let result = try await CourierToolProcess.run(
            ["request", "--retry", "2", "--retry-delay", "0.01", "-w", "\\n%{num_retries} %{num_redirects} %{http_code}", "--transport", transport, url]
        )
        #expect(result.status == 0, "\(result.stderrText)")
        let lastLine = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").last
        #expect(lastLine == "2 1 200")
        #expect(server.visits("w") == 3)
        try await server.shutdown()
    }

    @Test(arguments: [["--retry", "-1"], ["--retry-delay", "-2"], ["--retry-max-time", "nan"], ["--retry", "many"]])
    func badRetryValuesAreUsageErrors(arguments: [String]) async throws {
        let result = try await CourierToolProcess.run(["request"] + arguments + ["http://127.0.0.1:9/"])
        #expect(result.status == 64, "\(result.stderrText)")
        #expect(result.stderrText.contains("--retry"), "\(result.stderrText)")
    }
}
