#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A test server that is a script: written into a test's directory, run by an interpreter with
/// `-u`, telling its port as the first line it prints, and exiting by itself when its standard
/// input closes, so even a crashed test process leaves no server behind. ``HTTPSTestServer``,
/// ``DoHTestServer`` and ``HTTP3TestServer`` are each one of these with their own script.
package final class ScriptedServerProcess: Sendable {
    package let port: Int
    private let process: SpawnedProcess
    private let stdin: Pipe

    private init(port: Int, process: SpawnedProcess, stdin: Pipe) {
        self.port = port
        self.process = process
        self.stdin = stdin
    }

    /// Writes `script` to `NAME.py` in `directory`, runs it with `interpreter` and `arguments`,
    /// its standard error to `NAME.stderr` beside it, and waits (`TestRun.hangLimit` at most) for
    /// its port. Fails naming `server` and quoting its standard error when none comes.
    package static func start(
        _ server: String, name: String, script: String, interpreter: String, arguments: [String], directory: URL
    ) async throws -> ScriptedServerProcess {
        let scriptURL = directory.appendingPathComponent("\(name).py")
        try Data(script.utf8).write(to: scriptURL)
        let stderrURL = directory.appendingPathComponent("\(name).stderr")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)

        let stdin = Pipe()
        let stdout = Pipe()
        let process = try SpawnedProcess(
            executable: interpreter,
            arguments: ["-u", scriptURL.path] + arguments,
            standardInput: stdin.fileHandleForReading,
            standardOutput: stdout.fileHandleForWriting,
            standardError: try FileHandle(forWritingTo: stderrURL)
        )
        // The child has its ends; closing ours lets it see end of file on stdin once stop()
        // closes the writing end, and lets this process see end of file on stdout.
        try? stdin.fileHandleForReading.close()
        try? stdout.fileHandleForWriting.close()

        // Waits for the server's port, not for a speed: a loaded machine has taken more than 10 s.
        let limit = Int(TestRun.hangLimit.components.seconds)
        let line = await readLine(from: stdout.fileHandleForReading.fileDescriptor, deadline: .now() + .seconds(limit))
        guard let line, let port = Int(line), port > 0 else {
            ScriptedServerProcess(port: 0, process: process, stdin: stdin).stop()
            let stderr = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
            throw HTTPSTestServerError(
                "the \(server) printed no port within \(TestRun.hangLimit) (stdout: \(line.map { "\"\($0)\"" } ?? "nothing")); stderr:\n\(stderr)"
            )
        }
        return ScriptedServerProcess(port: port, process: process, stdin: stdin)
    }

    /// Terminates the process and waits for it to exit.
    package func stop() {
        try? stdin.fileHandleForWriting.close()
        if process.isRunning {
            process.terminate()
        }
        process.waitUntilExit()
    }

    /// The first line written to `fd`, or nil at end of file or when `deadline` passes first.
    /// Reads on a serial queue of its own (which, unlike `DispatchQueue.global()`, gets a thread
    /// even when the global pool is busy) so a slow interpreter start blocks no shared thread.
    private static func readLine(from fd: Int32, deadline: DispatchTime) async -> String? {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "ScriptedServerProcess.readLine").async {
                var bytes: [UInt8] = []
                var byte: UInt8 = 0
                while true {
                    let now = DispatchTime.now()
                    guard now < deadline else { break }
                    let remaining = Int32(min((deadline.uptimeNanoseconds - now.uptimeNanoseconds) / 1_000_000 + 1, 10_000))
                    var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&pollFD, 1, remaining)
                    if ready < 0, errno == EINTR { continue }
                    guard ready > 0, read(fd, &byte, 1) == 1 else {
                        if ready == 0 { continue }
                        break
                    }
                    if byte == UInt8(ascii: "\n") {
                        continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
                        return
                    }
                    bytes.append(byte)
                }
                continuation.resume(returning: bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}
