#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A child process started with `posix_spawn`, for the tests that run the `courier` tool, the
/// test binary itself or a server program.
///
/// Foundation's `Process.run()` on Linux scans `/proc/self/fd` with a fixed 256-byte copy of
/// each directory entry and crashes now and then when an entry sits at the end of a mapped
/// page (swift-corelibs-foundation #5472, fixed after the toolchain CI uses). A suite that
/// starts hundreds of children hits it; spawning directly avoids the scan. Every descriptor
/// above the three standard ones is closed in the child, as `Process` does, so a pipe handed
/// to one child is never held open by another started at the same moment.
package final class SpawnedProcess: @unchecked Sendable {
    /// How a finished child ended.
    package enum Termination: Equatable, Sendable {
        case exit
        case uncaughtSignal
    }

    package struct SpawnError: Error, CustomStringConvertible {
        package var executable: String
        package var errno: Int32
        package var description: String { "could not start \(executable): \(String(cString: strerror(errno)))" }
    }

    package let processIdentifier: pid_t
    private let lock = NSLock()
    private var waitStatus: Int32?

    /// Starts `executable` with `arguments` (not including the program name) and `environment`
    /// (this process's when `nil`), its standard streams on the given handles.
    package init(
        executable: String,
        arguments: [String],
        environment: [String: String]? = nil,
        standardInput: FileHandle = .nullDevice,
        standardOutput: FileHandle = .nullDevice,
        standardError: FileHandle = .nullDevice
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (handle, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            // `FileHandle.nullDevice` has no descriptor (-1) on Linux: the child opens /dev/null.
            if handle.fileDescriptor < 0 {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            }
        }
        Self.closeFrom(3, in: &actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // A child must not inherit the test runner's blocked or ignored signals: SIGPIPE ignored
        // would change how the tool reacts to a closed stdout.
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var defaultSignals = sigset_t()
        sigfillset(&defaultSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaultSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var pid = pid_t()
        let status = Self.withCStrings([executable] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
            }
        }
        guard status == 0 else { throw SpawnError(executable: executable, errno: status) }
        processIdentifier = pid
    }

    /// Whether the child has not exited yet; reaps it when it has.
    package var isRunning: Bool {
        lock.withLock {
            guard waitStatus == nil else { return false }
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, WNOHANG)
            if result == processIdentifier || (result == -1 && errno == ECHILD) {
                waitStatus = status
                return false
            }
            return true
        }
    }

    /// Blocks until the child exits.
    package func waitUntilExit() {
        lock.withLock {
            guard waitStatus == nil else { return }
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) == -1, errno == EINTR {}
            waitStatus = status
        }
    }

    /// Sends SIGTERM, unless the child was already reaped (its pid may belong to another
    /// process by then).
    package func terminate() {
        signal(SIGTERM)
    }

    /// Sends `signal` to a child not yet reaped.
    package func signal(_ signal: Int32) {
        lock.withLock {
            guard waitStatus == nil else { return }
            kill(processIdentifier, signal)
        }
    }

    /// The exit status, or the signal that ended the child; call after it exited.
    package var terminationStatus: Int32 {
        let status = lock.withLock { waitStatus } ?? 0
        return Self.exited(status) ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Whether the child exited or was ended by a signal; call after it exited.
    package var terminationReason: Termination {
        Self.exited(lock.withLock { waitStatus } ?? 0) ? .exit : .uncaughtSignal
    }

    private static func exited(_ status: Int32) -> Bool { status & 0x7f == 0 }

    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34) is not exported by Swift's Glibc
    /// module, so it is looked up at run time; without it, each descriptor up to the limit is
    /// closed one action at a time.
    private static func closeFrom(_ lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, lowest) == 0 { return }
        }
        let limit = min(Int32(sysconf(Int32(_SC_OPEN_MAX))), 4096)
        for descriptor in lowest..<max(lowest, limit) where fcntl(descriptor, F_GETFD) != -1 {
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }

    private static func withCStrings<Result>(
        _ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> Result
    ) -> Result {
        let pointers = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return body(pointers)
    }
}
