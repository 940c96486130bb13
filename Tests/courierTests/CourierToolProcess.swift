import CourierTestSupport
import Foundation
import Testing

/// Runs the built `courier` executable as a subprocess and collects what it printed.
///
/// `swift test` builds every executable product before the tests, into the same products
/// directory as the test binary, so the tool is found next to this process's executable
/// (`/proc/self/exe` on Linux; walking up from the `.xctest` bundle on macOS). `COURIER_TOOL`
/// overrides the search.
enum CourierToolProcess {
    struct Outcome {
        var status: Int32
        var stdout: Data
        var stderr: Data

        var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
        /// The non-empty lines of stderr.
        var stderrLines: [Substring] { stderrText.split(separator: "\n") }
    }

    struct ToolNotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "the built `courier` executable was not found; searched: \(searched.joined(separator: ", ")). "
                + "Build it first (swift build --build-tests) or set COURIER_TOOL to its path."
        }
    }

    static func executableURL() throws -> URL {
        let fileManager = FileManager.default
        if let path = ProcessInfo.processInfo.environment["COURIER_TOOL"], !path.isEmpty {
            guard fileManager.isExecutableFile(atPath: path) else { throw ToolNotFound(searched: [path]) }
            return URL(fileURLWithPath: path)
        }
        var starts: [URL] = []
        if let exe = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: exe))
        }
        starts += Bundle.allBundles.map(\.bundleURL).filter { $0.pathExtension == "xctest" }
        if let main = Bundle.main.executableURL { starts.append(main) }
        var searched: [String] = []
        for start in starts {
            // The products directory is the test binary's own (Linux) or up to three levels
            // above it (macOS: X.xctest/Contents/MacOS/X).
            var directory = start.deletingLastPathComponent()
            for _ in 0..<4 {
                let candidate = directory.appendingPathComponent("courier")
                searched.append(candidate.path)
                var isDirectory: ObjCBool = false
                if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                   fileManager.isExecutableFile(atPath: candidate.path) {
                    return candidate
                }
                directory = directory.deletingLastPathComponent()
            }
        }
        throw ToolNotFound(searched: searched)
    }

    /// Runs `courier arguments…` with `COURIER_TRANSPORT` removed from the environment unless
    /// `environment` sets it, killing it after `timeout`. stdin is `/dev/null` unless
    /// `standardInput` is given.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        standardInput: FileHandle = .nullDevice,
        timeout: Duration = TestRun.hangLimit
    ) async throws -> Outcome {
        // Files rather than pipes: nothing has to drain them while the child runs, so a large
        // body cannot block it.
        let directory = FileManager.default.temporaryDirectory
        let stdoutURL = directory.appendingPathComponent("courier-tool-\(UUID().uuidString).out")
        let stderrURL = directory.appendingPathComponent("courier-tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stdout = try FileHandle(forWritingTo: stdoutURL)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stdout.close()
            try? stderr.close()
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        let process = try launch(arguments, environment: environment, stdin: standardInput, stdout: stdout, stderr: stderr)
        try await waitForExit(process, arguments: arguments, timeout: timeout)
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? Data(contentsOf: stdoutURL)) ?? Data(),
            stderr: (try? Data(contentsOf: stderrURL)) ?? Data()
        )
    }

    /// How a run into a closed pipe ended.
    struct PipeOutcome {
        var reason: SpawnedProcess.Termination
        var status: Int32
        /// The bytes read before the read end was closed.
        var read: Data
        var stderr: Data

        var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    }

    /// Runs `courier arguments…` with stdout on a pipe, as `courier … | head -c N` would: the
    /// test reads up to `readBytes` bytes (none when 0), then closes the only read end, so the
    /// tool's next write fails with `EPIPE`. stdin is `/dev/null` unless `standardInput` is given.
    static func runIntoClosedPipe(
        _ arguments: [String], readBytes: Int, standardInput: FileHandle = .nullDevice, timeout: Duration = TestRun.hangLimit
    ) async throws -> PipeOutcome {
        var ends: [Int32] = [-1, -1]
        // Close-on-exec, so the child holds only the write end it gets as stdout: an inherited
        // read end would keep the pipe open and the tool would block instead of failing.
        guard pipe(&ends) == 0, fcntl(ends[0], F_SETFD, FD_CLOEXEC) == 0, fcntl(ends[1], F_SETFD, FD_CLOEXEC) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let readEnd = FileHandle(fileDescriptor: ends[0], closeOnDealloc: true)
        let writeEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let stderrURL = FileManager.default.temporaryDirectory.appendingPathComponent("courier-tool-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        let stderr = try FileHandle(forWritingTo: stderrURL)
        defer {
            try? stderr.close()
            try? FileManager.default.removeItem(at: stderrURL)
        }
        let process = try launch(arguments, environment: [:], stdin: standardInput, stdout: writeEnd, stderr: stderr)
        try writeEnd.close()
        // Off the task threads: the wait lasts as long as the tool takes to start and write,
        // which under load stalls every other test sharing those few threads.
        let readDescriptor = ends[0]
        let read = try await offTheTaskThreads { [readEnd] in
            var read = Data()
            if readBytes > 0 {
                // Bounded by poll, so a tool that never writes fails the test instead of hanging it.
                var entry = pollfd(fd: readDescriptor, events: Int16(POLLIN), revents: 0)
                if poll(&entry, 1, Int32(timeout.components.seconds * 1000)) == 1 {
                    read = try readEnd.read(upToCount: readBytes) ?? Data()
                }
            }
            try readEnd.close()
            return read
        }
        try await waitForExit(process, arguments: arguments, timeout: timeout)
        return PipeOutcome(
            reason: process.terminationReason,
            status: process.terminationStatus,
            read: read,
            stderr: (try? Data(contentsOf: stderrURL)) ?? Data()
        )
    }

    private static func launch(
        _ arguments: [String],
        environment: [String: String],
        stdin: FileHandle,
        stdout: FileHandle,
        stderr: FileHandle
    ) throws -> SpawnedProcess {
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["COURIER_TRANSPORT"] = nil
        childEnvironment.merge(environment) { _, new in new }
        return try SpawnedProcess(
            executable: try executableURL().path,
            arguments: arguments,
            environment: childEnvironment,
            standardInput: stdin,
            standardOutput: stdout,
            standardError: stderr
        )
    }

    private static func waitForExit(_ process: SpawnedProcess, arguments: [String], timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                Issue.record("courier \(arguments.joined(separator: " ")) did not exit within \(timeout)")
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
    }
}

/// A fresh temporary file path (not created), removed by the caller.
func temporaryPath(_ suffix: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-\(UUID().uuidString)\(suffix)").path
}

/// Runs `body`, which blocks (reading a child's output to its end, waiting for it to exit), on a
/// serial queue of its own, which gets a thread of its own: on one of the few threads that run
/// Swift tasks, or of `DispatchQueue.global()`, it stalled every other test.
func offTheTaskThreads<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "courierTests.blocking").async { continuation.resume(with: Result { try body() }) }
    }
}
