import Courier
import Foundation

/// Draws the ``ProgressBar`` on stderr, over itself with `\r`, and ends it with a newline.
///
/// Fed by `StreamingLayers.reportingProgress`, which calls at most ten times a second and
/// always for the head and the end; only created when stderr is a terminal.
final class ProgressMeter: Sendable {
    private let start = ContinuousClock.now
    private let width: Int
    private let hasDrawn = Locked(false)

    /// `COLUMNS` when the shell exports it, else 80.
    init(width: Int = ProcessInfo.processInfo.environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 20 ? $0 : nil } ?? 80) {
        // One column short: a line exactly as wide as the terminal wraps on some terminals.
        self.width = width - 1
    }

    func show(_ progress: TransferProgress) {
        let bar = ProgressBar(
            bytes: progress.bytesReceived, total: progress.expectedBytesToReceive,
            elapsed: start.duration(to: .now).seconds, isFinished: progress.isFinished
        )
        hasDrawn.withLock { $0 = true }
        Terminal.writeError("\r" + bar.line(width: width) + "\u{1B}[K")
    }

    /// Ends the line, when one was drawn, so what follows starts on a line of its own.
    func finish() {
        if hasDrawn.withLock({ $0 }) { Terminal.writeError("\n") }
    }
}
