import Foundation

/// Starts the test support's processes one at a time. Tests run in parallel, and a test process
/// launching many at once was seen to crash inside Foundation's `Process.run()` (a bad pointer
/// in its memcpy); launching is quick, so taking turns costs nothing that shows.
package enum ProcessLaunch {
    private static let lock = NSLock()

    package static func run(_ process: Process) throws {
        lock.lock()
        defer { lock.unlock() }
        try process.run()
    }
}
