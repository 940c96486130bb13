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

/// ``drive(_:width:total:deadline:expected:)`` on the client's preferred executor, if it has one.
func driveOnExecutor(_ client: BenchmarkClient, width: Int, total: Int?, deadline: ContinuousClock.Instant, expected: Int)
    async -> (requests: Int, failures: Int, bytes: Int)
{
    await withTaskExecutorPreference(client.executor) {
        await drive(client, width: width, total: total, deadline: deadline, expected: expected)
    }
}

/// Keeps `width` requests in flight until `total` have been sent or `deadline` has passed, then
/// waits for the rest. Returns (completed, failed, body bytes).
func drive(_ client: BenchmarkClient, width: Int, total: Int?, deadline: ContinuousClock.Instant, expected: Int)
    async -> (requests: Int, failures: Int, bytes: Int)
{
    // One in flight is a plain loop in the calling task, as an app sends requests one after
    // another; a child task per request would add its creation and scheduling to every client.
    if width == 1 {
        var completed = 0
        var failures = 0
        var bytes = 0
        repeat {
            completed += 1
            if let size = try? await client.fetch(), size == expected { bytes += size } else { failures += 1 }
        } while total.map { completed < $0 } ?? (ContinuousClock.now < deadline)
        return (completed, failures, bytes)
    }
    return await withTaskGroup(of: Int?.self) { group in
        var started = 0
        var completed = 0
        var failures = 0
        var bytes = 0
        func more() -> Bool {
            if let total { return started < total }
            return ContinuousClock.now < deadline
        }
        while started < width && (started == 0 || more()) {
            started += 1
            group.addTask { try? await client.fetch() }
        }
        while let result = await group.next() {
            completed += 1
            if let size = result, size == expected { bytes += size } else { failures += 1 }
            if more() {
                started += 1
                group.addTask { try? await client.fetch() }
            }
        }
        return (completed, failures, bytes)
    }
}

func measure(client name: String, base: String, workloadName: String, seconds: Double) async throws -> Record {
    guard let workload = Workload.named(workloadName) else { throw BenchmarkError.unknownWorkload(workloadName) }
    guard let url = URL(string: base + workload.path) else { throw BenchmarkError.badURL(base + workload.path) }
    let client = try makeClient(name, url: url, workload: workload)
    // "Idle" is the process with its client made and nothing sent yet: the warm-up below already
    // downloads the workload's bodies, and the 10 MiB target counts their buffers as growth.
    let idleRSS = currentRSSKiB()

    // Warm-up, not measured: connections open, code paged in, pools filled. The "once" workload
    // has none: its whole process is what is timed.
    if workload.name != "once" {
        let warm = min(workload.width, 64)
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
    await client.shutdown()
    return Record(
        client: client.name, workload: workload.name, requests: outcome.requests, failures: outcome.failures,
        bytes: outcome.bytes,
        seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
        cpuSeconds: cpu, maxRSSKiB: peakRSSKiB(), idleRSSKiB: idleRSS, allocations: allocations
    )
}
