#if canImport(Glibc)
import Glibc
#endif
import CourierTestSupport
import Foundation

/// The tool wrote nothing for as long as only a hang takes.
struct NoOutput: Error {
    var expected: Int
    var received: Int
}

/// The tool with its stdin and stdout on pipes the test writes and reads while it runs.
final class InteractiveTool: @unchecked Sendable {
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
