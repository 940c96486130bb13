import CourierTestSupport
import Foundation
import Testing

/// `courier serve` runs until it is signalled, whatever its standard input does, and a signal
/// stops it cleanly.
@Suite struct ServeCommandTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var standardInput: String
        var signal: Int32
        var testDescription: String { "stdin \(standardInput), then signal \(signal)" }
    }

    /// How long the server is watched: a tool that stopped at the end of stdin would have gone,
    /// and one that spins on /dev/zero would have used most of it on the CPU.
    static let watched = Duration.seconds(2)

    @Test(arguments: [
        Case(standardInput: "/dev/null", signal: SIGTERM),
        Case(standardInput: "/dev/zero", signal: SIGTERM),
        Case(standardInput: "/dev/null", signal: SIGINT),
    ])
    func runsUntilSignalledAndThenStops(_ test: Case) async throws {
        let input = try #require(FileHandle(forReadingAtPath: test.standardInput))
        defer { try? input.close() }
        let output = Pipe()
        let process = try SpawnedProcess(
            executable: try CourierToolProcess.executableURL().path,
            arguments: ["serve"],
            standardInput: input,
            standardOutput: output.fileHandleForWriting
        )
        try output.fileHandleForWriting.close()
        defer { process.signal(SIGKILL) }

        let line = try await Self.firstLine(of: output.fileHandleForReading, within: TestRun.hangLimit)
        let base = try #require(URL(string: line), "serve printed \(line.debugDescription)")
        #expect(base.host == "127.0.0.1", "\(line)")
        let cpuBefore = try Self.cpuSeconds(of: process.processIdentifier)
        try await Task.sleep(for: Self.watched)
        #expect(process.isRunning, "serve stopped on its own with stdin \(test.standardInput)")
        let cpu = try Self.cpuSeconds(of: process.processIdentifier) - cpuBefore
        // An idle server uses a few milliseconds; a loop reading /dev/zero used about half a core.
        #expect(cpu < 0.3, "serve used \(cpu) s of CPU in \(Self.watched) while idle")

        // Still serving: the tool itself asks for a body.
        let answer = try await CourierToolProcess.run(["request", base.appendingPathComponent("bytes/16").absoluteString])
        #expect(answer.status == 0, "\(answer.stderrText)")
        #expect(answer.stdout.count == 16)

        process.signal(test.signal)
        // Waits for the exit, not for a speed: only a tool that ignored the signal stays.
        let deadline = ContinuousClock.now + TestRun.hangLimit
        while process.isRunning, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(!process.isRunning, "serve did not stop within \(TestRun.hangLimit) of signal \(test.signal)")
        guard !process.isRunning else { return }
        // Exited 0 after its shutdown, rather than killed by the signal.
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// The first line `handle` gives, without its newline; fails after `timeout` or at its end.
    private static func firstLine(of handle: FileHandle, within timeout: Duration) async throws -> String {
        let descriptor = handle.fileDescriptor
        let milliseconds = Int32(timeout.components.seconds * 1000)
        return try await offTheTaskThreads {
            var bytes: [UInt8] = []
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while !bytes.contains(UInt8(ascii: "\n")) {
                guard poll(&entry, 1, milliseconds) == 1 else { throw LineNotPrinted(read: bytes) }
                var byte: UInt8 = 0
                guard read(descriptor, &byte, 1) == 1 else { throw LineNotPrinted(read: bytes) }
                bytes.append(byte)
            }
            return String(decoding: bytes.dropLast(), as: UTF8.self)
        }
    }

    struct LineNotPrinted: Error, CustomStringConvertible {
        var read: [UInt8]
        var description: String { "serve printed no line; read \(String(decoding: read, as: UTF8.self).debugDescription)" }
    }

    /// The CPU time, user and system, `pid` has used so far (`/proc/<pid>/stat`).
    private static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The name in parentheses may hold spaces; the fields after it are space-separated,
        // utime and stime being the 12th and 13th after the ")".
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        let ticks = try #require(Double(fields[11])) + (try #require(Double(fields[12])))
        return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}
