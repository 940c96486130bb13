#if canImport(Glibc)
import Glibc
#endif
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier request -T` and `-N`: a file or stdin as the body, and the body on stdout as it
/// arrives; with both, a conversation through the tool's stdin and stdout.
@Suite struct RequestStreamingTests {
    static let transports = ["curl", "urlsession"]

    @Test(arguments: transports)
    func uploadFilePutsTheFileWithItsLength(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = TestServer.deterministicBytes(count: 300_000, seed: 5)
        try contents.write(to: URL(fileURLWithPath: path))
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-T", path, server.url("/status/201").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "PUT")
        #expect(received.body == contents)
        #expect(received.value(for: "Content-Length") == "300000")
    }

    /// As curl: a URL with no file part gets the file's name; `-X` chooses another method.
    @Test(arguments: transports)
    func uploadFileNamesItselfInAURLEndingInASlash(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-X", "POST", "-T", path, server.url("/anything/").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "POST")
        #expect(received.path == "/anything/" + URL(fileURLWithPath: path).lastPathComponent)
        #expect(received.body == Data("notes\n".utf8))
    }

    /// As curl 7.88 and 8 send `-X POST -T FILE`: the file with its length and no
    /// `Content-Type`, since an upload is not a form, whatever the method.
    @Test(arguments: transports)
    func aPostedUploadFileGoesWithoutAContentType(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("a=1&b=2\n".utf8).write(to: URL(fileURLWithPath: path))
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-X", "POST", "-T", path, server.url("/anything/upload").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "POST")
        #expect(received.values(for: "Content-Type") == [])
        #expect(received.values(for: "Content-Length") == ["8"])
        #expect(received.values(for: "Transfer-Encoding") == [])
        #expect(received.body == Data("a=1&b=2\n".utf8))
    }

    /// As curl sends `-X POST -T -`: stdin chunked, with no `Content-Type`.
    @Test func aPostedStandardInputGoesWithoutAContentTypeOnCurl() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".txt")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("a=1&b=2\n".utf8).write(to: URL(fileURLWithPath: path))
        let input = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? input.close() }
        let result = try await CourierToolProcess.run(
            ["request", "--transport", "curl", "-X", "POST", "-T", "-", server.url("/anything/upload").absoluteString], standardInput: input
        )
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "POST")
        #expect(received.values(for: "Content-Type") == [])
        #expect(received.values(for: "Transfer-Encoding") == ["chunked"])
        #expect(received.body == Data("a=1&b=2\n".utf8))
    }

    @Test(arguments: transports)
    func anUnreadableUploadFileExitsTwentySixBeforeSending(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".missing")
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-T", path, server.url("/status/200").absoluteString])
        #expect(result.status == 26)
        #expect(result.stderrLines.count == 1 && result.stderrText.contains(path), "\(result.stderrText)")
        #expect(server.acceptedConnectionCount == 0)
    }

    @Test(arguments: transports)
    func noBufferWritesTheBodyUnchanged(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-N", server.url("/stream-bytes/100000?seed=3").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == TestServer.deterministicBytes(count: 100_000, seed: 3))
    }

    @Test func uploadAndNoBufferTakeOneURLAndOneBody() async throws {
        for arguments in [["-T", "-", "http://127.0.0.1:9/a", "http://127.0.0.1:9/b"], ["-N", "http://127.0.0.1:9/a", "http://127.0.0.1:9/b"], ["-T", "-", "-d", "x", "http://127.0.0.1:9/"]] {
            let result = try await CourierToolProcess.run(["request"] + arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderrText)")
            #expect(result.stderrLines.count == 1, "\(arguments): \(result.stderrText)")
        }
    }

    /// Each line is written to the tool's stdin only once the echo of the one before came out
    /// of its stdout: a tool that waits to fill a buffer before sending, or holds the body until
    /// it is complete, never answers the first line.
    @Test func aConversationThroughStdinAndStdoutOnCurl() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let tool = try InteractiveTool(["request", "--transport", "curl", "-T", "-", "-N", server.url("/duplex-echo").absoluteString])
        let lines = (1...5).map { Data("line \($0)\n".utf8) }
        var transcript = Data()
        for line in lines {
            try tool.write(line)
            let echo = try await offTheTaskThreads { [tool] in try tool.read(count: line.count) }
            transcript.append(echo)
            #expect(echo == line)
        }
        try tool.closeInput()
        let (status, rest, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        #expect(rest.isEmpty)
        #expect(transcript == lines.reduce(Data(), +))
    }

    @Test func standardInputAsItIsReadIsRefusedOnURLSession() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", "urlsession", "-T", "-", "-N", server.url("/duplex-echo").absoluteString])
        #expect(result.status == 4)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.contains("(-T -)") && result.stderrText.contains("CurlTransport can"), "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        #expect(server.acceptedConnectionCount == 0)
    }
}
