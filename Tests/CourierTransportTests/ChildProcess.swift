#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestSupport
import Foundation
import Testing

/// Runs one test of this test binary in a process of its own.
///
/// Some checks cannot share a process with tests running in parallel: proxy variables must be
/// in the environment before any transport reads it (`setenv` here would race every other
/// test's `getenv` and could send their traffic to the trap), and counting the process's open
/// file descriptors needs a process where nothing else opens or closes any. The child is this
/// same binary filtered to one entry point in ``ChildProcessEntryPoints``, which is enabled
/// only when ``variable`` names it.
enum ChildProcess {
    /// Names the entry point a child process runs; unset in the parent.
    static let variable = "COURIER_CHILD_TEST"

    /// The entry point this process was started for, or nil in the parent.
    static var current: String? { ProcessInfo.processInfo.environment[variable] }

    struct Outcome {
        var status: Int32
        var output: String
    }

    /// Runs the entry point `name` for `transport` with `environment` added to this process's
    /// environment, and returns its exit status and output once it exits (or is killed at
    /// `timeout`, which only a hang reaches: past every wait the child makes, each bounded by
    /// ``TestRun/hangLimit``, and the start of a whole test binary under a sanitizer).
    static func run(
        _ name: String, transport: TransportKind, environment: [String: String] = [:], timeout: Duration = TestRun.hangLimit * 2
    ) async throws -> Outcome {
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment[variable] = name
        childEnvironment[TransportKind.environmentVariable] = transport.rawValue
        childEnvironment.merge(environment) { _, new in new }
        let outputURL = FileManager.default.temporaryDirectory.appendingPathComponent("courier-child-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputURL)
        defer {
            try? output.close()
            try? FileManager.default.removeItem(at: outputURL)
        }
        let process = try SpawnedProcess(
            executable: try executablePath(),
            arguments: ["--testing-library", "swift-testing", "--filter", "ChildProcessEntryPoints/\(name)"],
            environment: childEnvironment,
            standardOutput: output,
            standardError: output
        )
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                process.terminate()
                break
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        let text = (try? String(contentsOf: outputURL, encoding: .utf8)) ?? ""
        return Outcome(status: process.terminationStatus, output: text)
    }

    /// The test binary itself: `/proc/self/exe` resolved, since `swift test` may start it
    /// through a relative path.
    private static func executablePath() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }
}

/// Open file descriptors of this process other than timerfds, counted in `/proc/self/fd` (the
/// directory's own descriptor, open while it is listed, excluded).
///
/// Timerfds are left out because libdispatch creates one, for the life of the process, the
/// first time it arms a timer of a kind it has not armed before; under CPU contention that
/// happened in the middle of a test (1 run in 40) and looked like a leak. Neither transport
/// creates timerfds per request: what they could leak is sockets, pipes and eventfds.
func openFileDescriptorCount() -> Int {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    let timers = entries.filter { entry in
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == "anon_inode:[timerfd]"
    }
    return max(0, entries.count - timers.count - 1)
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns its last value.
/// For state that settles on other threads (a transport's thread releasing sockets), where a
/// fixed sleep would be either flaky or slow. The default limit is one only a hang reaches: a
/// loaded machine or a sanitizer makes the state change late, never not at all.
func eventually(within timeout: Duration = TestRun.hangLimit, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// What each open descriptor refers to (`socket:[inode]`, `anon_inode:[eventfd]`…), for
/// failure messages.
func openFileDescriptorTargets() -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    let tcp = ((try? String(contentsOfFile: "/proc/self/net/tcp", encoding: .utf8)) ?? "").split(separator: "\n")
    return entries.sorted().compactMap { entry in
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)") else {
            return nil
        }
        // For a socket, its /proc/net/tcp line (local and remote address:port in hex, state).
        let inode = target.hasPrefix("socket:[") ? String(target.dropFirst(8).dropLast()) : ""
        let line = inode.isEmpty ? nil : tcp.first { $0.split(separator: " ").contains { $0 == inode } }
        return "\(entry)→\(target)" + (line.map { " [\($0.split(separator: " ").prefix(4).joined(separator: " "))]" } ?? "")
    }
}
