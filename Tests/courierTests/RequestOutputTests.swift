import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier request -o FILE`: the body streamed to the file, the progress bar, and write errors.
@Suite struct RequestOutputTests {
    static let transports = ["curl", "urlsession"]

    /// 80 MiB with its `Content-Length`, past the 64 MiB limit a body on stdout has: with `-o`
    /// it is written whole, as curl writes it, unless `--max-filesize` sets a limit.
    @Test(arguments: transports)
    func aFileHasNoLimitUnlessOneIsGiven(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let count = 80 << 20
        let url = server.url("/zeros/\(count)").absoluteString
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-o", path, url])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderr.isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.size] as? NSNumber)?.intValue == count)
        let handle = try #require(FileHandle(forReadingAtPath: path))
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(count - 4096))
        #expect(try handle.readToEnd() == Data(count: 4096))

        let limited = try await CourierToolProcess.run(["request", "--transport", transport, "--max-filesize", "\(1 << 20)", "-o", path, url])
        #expect(limited.status == 63)
        #expect(limited.stderrLines.count == 1, "\(limited.stderrText)")
        #expect(limited.stderrText.contains("URLError -1103"), "\(limited.stderrText)")

        let toStdout = try await CourierToolProcess.run(["request", "--transport", transport, url])
        #expect(toStdout.status == 63)
        #expect(toStdout.stdout.isEmpty)
        #expect(toStdout.stderrText.contains("URLError -1103"), "\(toStdout.stderrText)")
    }

    @Test(arguments: transports)
    func aFullDiskExitsTwentyThreeWithOneLine(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/bytes/300000").absoluteString
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-o", "/dev/full", url])
        #expect(result.status == 23)
        #expect(result.stderrLines == ["courier: GET \(url): cannot write /dev/full: No space left on device"])
    }

    @Test func aFileThatCannotBeCreatedExitsTwentyThree() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/bytes/10").absoluteString
        let path = temporaryPath("/missing-directory/file")
        let result = try await CourierToolProcess.run(["request", "-o", path, url])
        #expect(result.status == 23)
        #expect(result.stderrLines == ["courier: GET \(url): cannot create \(path): No such file or directory"])
    }

    @Test(arguments: transports)
    func aDashWritesTheBodyToStdout(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "-o", "-", server.url("/stream-bytes/70000?seed=4").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == TestServer.deterministicBytes(count: 70_000, seed: 4))
    }

    @Test(arguments: transports)
    func noBarWhenStderrIsAPipe(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stderr = Pipe()
        let process = try SpawnedProcess(
            executable: try CourierToolProcess.executableURL().path,
            arguments: ["request", "--transport", transport, "-o", path, server.url("/drip/5?interval_ms=150").absoluteString],
            standardError: stderr.fileHandleForWriting
        )
        try stderr.fileHandleForWriting.close()
        let reader = stderr.fileHandleForReading
        let written = try await offTheTaskThreads {
            let written = try reader.readToEnd() ?? Data()
            process.waitUntilExit()
            return written
        }
        #expect(process.terminationStatus == 0)
        #expect(written.isEmpty, "\(String(decoding: written, as: UTF8.self))")
        #expect(FileManager.default.contents(atPath: path) == TestServer.deterministicBytes(count: 5))
    }

    /// Under a pseudo-terminal (`script`), the bar is drawn over itself and ends with a newline;
    /// `-s` leaves it out.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")), arguments: transports)
    func aTerminalGetsTheBarUnlessSilent(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = server.url("/drip/4?interval_ms=250").absoluteString
        let shown = try await Self.underTerminal(["request", "--transport", transport, "-o", path, url])
        #expect(shown.contains("\r100% ["), "\(shown.debugDescription)")
        #expect(shown.contains("4 B /       4 B"), "\(shown.debugDescription)")
        #expect(shown.hasSuffix("\n"), "\(shown.debugDescription)")
        #expect(FileManager.default.contents(atPath: path) == TestServer.deterministicBytes(count: 4))
        let silent = try await Self.underTerminal(["request", "--transport", transport, "-s", "-o", path, url])
        #expect(silent.isEmpty, "\(silent.debugDescription)")
    }

    /// What `courier arguments…` wrote to its terminal, run by `script` on a pseudo-terminal.
    private static func underTerminal(_ arguments: [String]) async throws -> String {
        let command = ([try CourierToolProcess.executableURL().path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = ProcessInfo.processInfo.environment
        environment["COURIER_TRANSPORT"] = nil
        environment["COLUMNS"] = "100"
        let output = Pipe()
        let process = try SpawnedProcess(
            executable: "/usr/bin/script",
            arguments: ["-qec", command, "/dev/null"],
            environment: environment,
            standardOutput: output.fileHandleForWriting
        )
        try output.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        let written = try await offTheTaskThreads {
            let written = try reader.readToEnd() ?? Data()
            process.waitUntilExit()
            return written
        }
        #expect(process.terminationStatus == 0)
        // The terminal turns each "\n" into "\r\n".
        return String(decoding: written, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}
