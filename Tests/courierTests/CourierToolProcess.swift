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
    /// `environment` sets it, killing it after `timeout`.
    static func run(
        _ arguments: [String],
        environment: [String: String] = [:],
        timeout: Duration = .seconds(60)
    ) async throws -> Outcome {
        let process = Process()
        process.executableURL = try executableURL()
        process.arguments = arguments
        var childEnvironment = ProcessInfo.processInfo.environment
        childEnvironment["COURIER_TRANSPORT"] = nil
        childEnvironment.merge(environment) { _, new in new }
        process.environment = childEnvironment
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
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
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
        return Outcome(
            status: process.terminationStatus,
            stdout: (try? Data(contentsOf: stdoutURL)) ?? Data(),
            stderr: (try? Data(contentsOf: stderrURL)) ?? Data()
        )
    }
}

/// A fresh temporary file path (not created), removed by the caller.
func temporaryPath(_ suffix: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("courier-test-\(UUID().uuidString)\(suffix)").path
}
