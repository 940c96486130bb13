import Foundation

/// The `-o` progress line on stderr (only when stderr is a terminal).
///
/// `Networking` hands the body over whole when it has arrived, so there are no byte counts to
/// show while it downloads: the line shows the time waited, then the size and rate at the end.
final class Progress: Sendable {
    private let ticker: Task<Void, Never>
    private let start = ContinuousClock.now

    private init(ticker: Task<Void, Never>) {
        self.ticker = ticker
    }

    static func start() -> Progress {
        let start = ContinuousClock.now
        let ticker = Task {
            while !Task.isCancelled {
                let waited = start.duration(to: .now).seconds
                Terminal.writeError(String(format: "\r\u{1B}[Kreceiving… %.1f s", waited))
                try? await Task.sleep(for: .milliseconds(200))
            }
        }
        return Progress(ticker: ticker)
    }

    /// Stops the ticker and replaces its line with the outcome (`nil` bytes: the request failed).
    func finish(bytes: Int?) async {
        ticker.cancel()
        // Wait for the ticker, so its last write cannot land after the final line.
        await ticker.value
        let seconds = start.duration(to: .now).seconds
        let text = bytes.map { String(format: "received %d bytes in %.2f s (%.2f MB/s)\n", $0, seconds, seconds > 0 ? Double($0) / 1e6 / seconds : 0) } ?? "\n"
        Terminal.writeError("\r\u{1B}[K" + text)
    }
}
