import Foundation

/// Names the corpus file a replay was running when the process trapped, since a trap ends the
/// process before any Swift code could report it: a signal handler writes a line prepared
/// beforehand, then lets the signal kill the process as it would have.
enum TrapReport {
    private static let capacity = 4096
    nonisolated(unsafe) private static let line = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var length = 0
    nonisolated(unsafe) private static var installed = false

    /// Called from one thread only, the replay loop.
    static func set(_ text: String) {
        if !installed {
            installed = true
            for signal in [SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGABRT, SIGFPE] {
                Foundation.signal(signal, report)
            }
        }
        let utf8 = Array(text.utf8.prefix(capacity))
        // Written as a length first set to 0, so that a signal mid-copy writes nothing torn.
        length = 0
        for (index, byte) in utf8.enumerated() {
            line[index] = CChar(bitPattern: byte)
        }
        length = utf8.count
    }
}

/// Only async-signal-safe calls: write, signal, raise.
private func report(_ signal: Int32) {
    TrapReport.write()
    Foundation.signal(signal, SIG_DFL)
    raise(signal)
}

extension TrapReport {
    fileprivate static func write() {
        _ = Foundation.write(STDOUT_FILENO, line, length)
    }
}
