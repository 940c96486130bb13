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

/// The tool wrote nothing for as long as only a hang takes.
private struct NoOutput: Error {
    var expected: Int
    var received: Int
}

/// The tool with its stdin and stdout on pipes the test writes and reads while it runs.
private final class InteractiveTool: @unchecked Sendable {
    private let process: SpawnedProcess
    private let input: FileHandle
    private let output: FileHandle
    private let stderrURL: URL

    init(_ arguments: [String]) throws {
        var inputEnds: [Int32] = [-1, -1]
        var outputEnds: [Int32] = [-1, -1]
        // Close-on-exec, so the child holds only the ends it gets as stdin and stdout: an
        // inherited write end of its stdin would keep the tool from ever seeing the end of input.
        guard pipe(&inputEnds) == 0, pipe(&outputEnds) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        for descriptor in inputEnds + outputEnds {
            guard fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
        let childInput = FileHandle(fileDescriptor: inputEnds[0], closeOnDealloc: true)
        let childOutput = FileHandle(fileDescriptor: outputEnds[1], closeOnDealloc: true)
        input = FileHandle(fileDescriptor: inputEnds[1], closeOnDealloc: true)
        output = FileHandle(fileDescriptor: outputEnds[0], closeOnDealloc: true)
        stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        var environment = ProcessInfo.processInfo.environment
        environment["COURIER_TRANSPORT"] = nil
        process = try SpawnedProcess(
            executable: try CourierToolProcess.executableURL().path, arguments: arguments, environment: environment,
            standardInput: childInput, standardOutput: childOutput, standardError: stderr
        )
        try childInput.close()
        try childOutput.close()
        try stderr.close()
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: stderrURL)
    }

    func write(_ data: Data) throws {
        try input.write(contentsOf: data)
    }

    func closeInput() throws {
        try input.close()
    }

    /// Reads exactly `count` bytes of the tool's stdout, failing when none come for as long as
    /// only a hang takes.
    func read(count: Int) throws -> Data {
        var received = Data()
        while received.count < count {
            var entry = pollfd(fd: output.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, Int32(TestRun.hangLimit.components.seconds * 1000)) == 1 else {
                throw NoOutput(expected: count, received: received.count)
            }
            guard let piece = try output.read(upToCount: count - received.count), !piece.isEmpty else { break }
            received.append(piece)
        }
        return received
    }

    /// Waits for the tool to exit; its status, what was left on stdout, and stderr.
    func finish() async throws -> (Int32, Data, String) {
        let rest = try await offTheTaskThreads { [output] in try output.readToEnd() ?? Data() }
        let process = self.process
        try await offTheTaskThreads { process.waitUntilExit() }
        let stderr = String(decoding: (try? Data(contentsOf: stderrURL)) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, rest, stderr)
    }
}
