#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CAllocationCounter
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One cell of one run, as both this program and c/multi-get.c print it (one JSON line).
struct Record: Codable, Sendable {
    var client: String
    var workload: String
    var requests: Int
    var failures: Int
    var bytes: Int
    var seconds: Double
    var cpuSeconds: Double
    var maxRSSKiB: Int
    var idleRSSKiB: Int
    var allocations: Int
    /// The workload's connection limit; absent in records made before the scale workloads.
    var connections: Int? = nil
    /// Latency of a request, from its submission to its body complete: the median and the 99th
    /// percentile over the run's completed requests. Absent in older records.
    var p50Milliseconds: Double? = nil
    var p99Milliseconds: Double? = nil
    /// CPU seconds nginx's worker spent while this client's process ran (Benchmarks/run adds it
    /// to the client's record). Absent in older records and in the modes that do not measure it.
    var serverCPUSeconds: Double? = nil
    /// Which of the interleaved runs this record belongs to (Benchmarks/run adds it), so ratios
    /// can be taken between clients of one run. Absent in older records and in some modes.
    var run: Int? = nil

    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

/// user + sys CPU seconds of the whole process, every thread included.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func peakRSSKiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// Resident set now (not the peak), from /proc/self/statm; 0 where there is no /proc.
func currentRSSKiB() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

/// What a driven run did: completed and failed requests, body bytes, and each completed
/// request's latency (submitted → body complete).
struct Outcome: Sendable {
    var requests = 0
    var failures = 0
    var bytes = 0
    var latencies: [Duration] = []

    mutating func add(size: Int?, expected: Int, latency: Duration) {
        requests += 1
        latencies.append(latency)
        if let size, size == expected { bytes += size } else { failures += 1 }
    }

    /// The latency below which `fraction` of the sorted latencies lie (nearest rank), in ms.
    static func percentileMilliseconds(_ fraction: Double, of sorted: [Duration]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(sorted.count, max(1, Int((fraction * Double(sorted.count)).rounded(.up))))
        let value = sorted[rank - 1].components
        return Double(value.seconds) * 1e3 + Double(value.attoseconds) / 1e15
    }
}

/// ``drive(_:width:total:deadline:expected:)`` on the client's preferred executor, if it has one.
func driveOnExecutor(_ client: BenchmarkClient, width: Int, total: Int?, deadline: ContinuousClock.Instant, expected: Int)
    async -> Outcome
{
    await withTaskExecutorPreference(client.executor) {
        await drive(client, width: width, total: total, deadline: deadline, expected: expected)
    }
}

/// Keeps `width` requests in flight until `total` have been sent or `deadline` has passed, then
/// waits for the rest. A request's latency runs from just before its task is made to the end
/// of its body, so time spent waiting for a thread or a connection counts.
func drive(_ client: BenchmarkClient, width: Int, total: Int?, deadline: ContinuousClock.Instant, expected: Int)
    async -> Outcome
{
    // One in flight is a plain loop in the calling task, as an app sends requests one after
    // another; a child task per request would add its creation and scheduling to every client.
    if width == 1 {
        var outcome = Outcome()
        outcome.latencies.reserveCapacity(total ?? 65_536)
        repeat {
            let submitted = ContinuousClock.now
            let size = try? await client.fetch()
            outcome.add(size: size, expected: expected, latency: submitted.duration(to: .now))
        } while total.map { outcome.requests < $0 } ?? (ContinuousClock.now < deadline)
        return outcome
    }
    return await withTaskGroup(of: (size: Int?, latency: Duration).self) { group in
        var started = 0
        var outcome = Outcome()
        outcome.latencies.reserveCapacity(65_536)
        func more() -> Bool {
            if let total { return started < total }
            return ContinuousClock.now < deadline
        }
        func submit() {
            started += 1
            let submitted = ContinuousClock.now
            group.addTask {
                let size = try? await client.fetch()
                return (size, submitted.duration(to: .now))
            }
        }
        while started < width && (started == 0 || more()) { submit() }
        while let result = await group.next() {
            outcome.add(size: result.size, expected: expected, latency: result.latency)
            if more() { submit() }
        }
        return outcome
    }
}

func measure(client name: String, base: String, workloadName: String, seconds: Double) async throws -> Record {
    guard let workload = Workload.named(workloadName) else { throw BenchmarkError.unknownWorkload(workloadName) }
    guard let url = URL(string: base + workload.path) else { throw BenchmarkError.badURL(base + workload.path) }
    let client = try makeClient(name, url: url, workload: workload)
    // Requests nginx holds unanswered, open from before the warm-up to the end.
    var held: [Task<Void, Never>] = []
    if workload.idle > 0 {
        guard let holdOpen = client.holdOpen else { throw BenchmarkError.unknownClient("\(name) with held requests") }
        held = (0..<workload.idle).map { _ in Task { try? await holdOpen() } }
    }
    // "Idle" is the process with its client made and nothing sent yet: the warm-up below already
    // downloads the workload's bodies, and the 10 MiB target counts their buffers as growth.
    let idleRSS = currentRSSKiB()

    // Warm-up, not measured: connections open, code paged in, pools filled. The "once" workload
    // has none: its whole process is what is timed.
    if workload.name != "once" {
        // Enough requests at once to open every connection the workload may use.
        let warm = min(workload.width, workload.connections)
        for _ in 0..<2 {
            _ = await driveOnExecutor(client, width: warm, total: warm, deadline: .now, expected: workload.expectedBytes)
        }
    }

    if workload.name == "idle" {
        let before = processCPUSeconds()
        try await Task.sleep(for: .seconds(2))
        let cpu = processCPUSeconds() - before
        await client.shutdown()
        return Record(
            client: client.name, workload: workload.name, requests: 0, failures: 0, bytes: 0, seconds: 2,
            cpuSeconds: cpu, maxRSSKiB: peakRSSKiB(), idleRSSKiB: idleRSS, allocations: 0
        )
    }

    let counting = workload.name == "allocs"
    if counting { allocation_counter_start() }
    let cpuBefore = processCPUSeconds()
    let start = ContinuousClock.now
    let outcome = await driveOnExecutor(
        client, width: workload.width, total: workload.total, deadline: start + .seconds(seconds), expected: workload.expectedBytes
    )
    let elapsed = start.duration(to: .now)
    let cpu = processCPUSeconds() - cpuBefore
    let allocations = counting ? Int(allocation_counter_stop()) : 0
    for task in held { task.cancel() }
    for task in held { await task.value }
    await client.shutdown()
    let sorted = outcome.latencies.sorted()
    return Record(
        client: client.name, workload: workload.name, requests: outcome.requests, failures: outcome.failures,
        bytes: outcome.bytes,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        cpuSeconds: cpu, maxRSSKiB: peakRSSKiB(), idleRSSKiB: idleRSS, allocations: allocations,
        connections: workload.connections,
        p50Milliseconds: Outcome.percentileMilliseconds(0.50, of: sorted),
        p99Milliseconds: Outcome.percentileMilliseconds(0.99, of: sorted)
    )
}
