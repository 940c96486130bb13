#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Synchronization

/// Sends one URL repeatedly with a fixed number in flight and measures throughput and latency.
/// Shared by `courier bench` and the demo's throughput step.
struct LoadRun: Sendable {
    /// When a run stops.
    enum Limit: Sendable {
        case requests(Int)
        case duration(Duration)
    }

    var request: URLRequest
    var concurrency: Int
    var limit: Limit

    /// What one run measured. Latencies are kept whole and sorted: a run of a few seconds holds
    /// at most a few hundred thousand values, so exact percentiles cost less than a histogram's
    /// bucketing error.
    struct Result: Sendable {
        var completed = 0
        /// TransportKind failures and responses with status >= 400.
        var errors = 0
        var bodyBytes = 0
        var elapsed: Duration = .zero
        var sortedLatencies: [Duration] = []
        /// The first failure seen, for the report.
        var firstError: String?

        var seconds: Double { elapsed.seconds }
        var requestsPerSecond: Double { seconds > 0 ? Double(completed) / seconds : 0 }
        var megabytesPerSecond: Double { seconds > 0 ? Double(bodyBytes) / 1_000_000 / seconds : 0 }

        /// The latency below which `fraction` of requests finished (nearest rank); zero when empty.
        func latency(atFraction fraction: Double) -> Duration {
            guard !sortedLatencies.isEmpty else { return .zero }
            let rank = Int((fraction * Double(sortedLatencies.count)).rounded(.up)) - 1
            return sortedLatencies[min(max(rank, 0), sortedLatencies.count - 1)]
        }
    }

    /// One worker's tally, merged after the run so workers never share mutable state.
    private struct Tally: Sendable {
        var completed = 0
        var errors = 0
        var bodyBytes = 0
        var latencies: [Duration] = []
        var firstError: String?
    }

    func run(_ networking: @escaping Networking) async -> Result {
        let issued = RequestCounter()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline: ContinuousClock.Instant? = if case .duration(let duration) = limit { start + duration } else { nil }
        let maximum: Int? = if case .requests(let count) = limit { count } else { nil }
        let request = request
        let tallies = await withTaskGroup(of: Tally.self, returning: [Tally].self) { group in
            for _ in 0..<max(concurrency, 1) {
                group.addTask {
                    var tally = Tally()
                    while true {
                        if let deadline, clock.now >= deadline { break }
                        // Claim a slot before sending, so `--requests M` sends exactly M.
                        if let maximum, issued.next() > maximum { break }
                        let sent = clock.now
                        do {
                            let (data, response) = try await networking(request)
                            tally.latencies.append(sent.duration(to: clock.now))
                            tally.completed += 1
                            tally.bodyBytes += data.count
                            if let status = (response as? HTTPURLResponse)?.statusCode, status >= 400 {
                                tally.errors += 1
                                tally.firstError = tally.firstError ?? "HTTP \(status)"
                            }
                        } catch {
                            tally.errors += 1
                            tally.firstError = tally.firstError ?? APIError.Kind.transport(error).description
                            // A dead server fails fast; stop rather than spin through failures.
                            if tally.errors > 100, tally.completed == 0 { break }
                        }
                    }
                    return tally
                }
            }
            var all: [Tally] = []
            for await tally in group { all.append(tally) }
            return all
        }
        var result = Result()
        result.elapsed = start.duration(to: clock.now)
        for tally in tallies {
            result.completed += tally.completed
            result.errors += tally.errors
            result.bodyBytes += tally.bodyBytes
            result.sortedLatencies += tally.latencies
            result.firstError = result.firstError ?? tally.firstError
        }
        result.sortedLatencies.sort()
        return result
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// Milliseconds with two decimals, for tables.
    var millisecondsText: String {
        String(format: "%.2f", seconds * 1000)
    }
}

extension LoadRun.Result {
    /// The header of ``tableRow(transport:)``.
    static let tableHeader = ["transport", "requests", "errors", "req/s", "MB/s", "p50 ms", "p90 ms", "p99 ms", "max ms"]
    /// Numeric columns, right-aligned.
    static let numericColumns: Set<Int> = [1, 2, 3, 4, 5, 6, 7, 8]

    func tableRow(transport: String) -> [String] {
        [
            transport,
            "\(completed)",
            "\(errors)",
            String(format: "%.0f", requestsPerSecond),
            String(format: "%.2f", megabytesPerSecond),
            latency(atFraction: 0.50).millisecondsText,
            latency(atFraction: 0.90).millisecondsText,
            latency(atFraction: 0.99).millisecondsText,
            (sortedLatencies.last ?? .zero).millisecondsText,
        ]
    }
}

/// Hands out request numbers to the workers of a `--requests M` run. A class, because an
/// `Atomic` cannot be captured by the task group's escaping closures.
private final class RequestCounter: Sendable {
    private let count = Atomic<Int>(0)

    /// 1 for the first call, then 2, 3, …
    func next() -> Int {
        count.add(1, ordering: .relaxed).newValue
    }
}
