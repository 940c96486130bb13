#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// What a compression bomb leaves behind in a process that goes on after it, on each transport:
// the time to the caller's error, the time a small GET on the same transport then takes, how
// long the process keeps a core busy afterwards, its peak RSS and the transport's shutdown.
// `courier request` exits right after its error, which hides all of that; scripts/hostile-memory
// runs this after its own table. A figure printer: nothing here fails on a large number.
//
//     courier-bomb-aftermath BASE_URL [MIB]

/// CPU time this process has used, user and system.
func cpuTime() -> Duration {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    let user: Duration = .seconds(usage.ru_utime.tv_sec) + .microseconds(usage.ru_utime.tv_usec)
    let system: Duration = .seconds(usage.ru_stime.tv_sec) + .microseconds(usage.ru_stime.tv_usec)
    return user + system
}

/// The peak RSS since the last ``resetPeak()``, in MiB.
func peakMiB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    let kib: Int = Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1024
    return kib / 1024
}

/// Starts a new peak (Linux 4.0 and later).
func resetPeak() {
    try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
}

/// Waits until the process uses under 5% of a core over 200 ms, for 60 s at most; how long
/// that took.
func quiescence() async -> Duration {
    let started = ContinuousClock.now
    var last = cpuTime()
    while ContinuousClock.now - started < .seconds(60) {
        try? await Task.sleep(for: .milliseconds(200))
        let now = cpuTime()
        let used = now - last
        last = now
        if used < .milliseconds(10) { break }
    }
    return ContinuousClock.now - started
}

func seconds(_ duration: Duration) -> String {
    let value: Double = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    return String(format: "%.2f", value)
}

func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
}

func left(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
}

/// How long `body` took, and "ok" or the URLError's code.
func timed(_ body: () async throws -> Void) async -> (Duration, String) {
    let started = ContinuousClock.now
    var outcome = "ok"
    do {
        try await body()
    } catch let error as URLError {
        outcome = "URLError \(error.code.rawValue)"
    } catch {
        outcome = "\(error)"
    }
    return (ContinuousClock.now - started, outcome)
}

/// A transport of `kind` with `policies`, as a Networking and its shutdown.
func transport(_ kind: String, policies: Policies) throws -> (Networking, @Sendable () async -> Void) {
    if kind == "curl" {
        var configuration = CurlTransport.Configuration()
        configuration.policies = policies
        let transport = try CurlTransport(configuration: configuration)
        return (transport.networking, { await transport.shutdown() })
    }
    var configuration = URLSessionTransport.Configuration()
    configuration.policies = policies
    let transport = URLSessionTransport(configuration: configuration)
    return (transport.networking, { await transport.shutdown() })
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let base = URL(string: arguments[1]) else {
    FileHandle.standardError.write(Data("usage: courier-bomb-aftermath BASE_URL [MIB]\n".utf8))
    exit(64)
}
let mebibytes: Int = arguments.count > 2 ? (Int(arguments[2]) ?? 10_240) : 10_240
var policies = Policies()
policies.maximumResponseBytes = 64 << 20

print("a \(mebibytes) MiB bomb with a 64 MiB limit, then GET /get on the same transport, in one process (seconds, MiB)")
print("transport   coding  error after  outcome               next GET  busy after   CPU s  peak MiB  shutdown")
for kind in ["curl", "urlsession"] {
    for coding in ["gzip", "zstd"] {
        guard let (networking, shutdown) = try? transport(kind, policies: policies) else { continue }
        let get = URLRequest(url: base.appendingPathComponent("get"))
        _ = try? await networking(get)
        resetPeak()
        let cpuBefore = cpuTime()
        let bomb = URLRequest(url: base.appendingPathComponent("bomb/\(coding)/\(mebibytes)"))
        let (errorAfter, outcome) = await timed { _ = try await networking(bomb) }
        let (nextGet, _) = await timed { _ = try await networking(get) }
        let busy = await quiescence()
        let cpu = cpuTime() - cpuBefore
        let peak = peakMiB()
        let (shutdownTook, _) = await timed { await shutdown() }
        var line = left(kind, 11) + " " + left(coding, 7)
        line += " " + right(seconds(errorAfter), 11) + "  " + left(outcome, 20)
        line += " " + right(seconds(nextGet), 9) + " " + right(seconds(busy), 11)
        line += " " + right(seconds(cpu), 7) + " " + right(String(peak), 9)
        line += " " + right(seconds(shutdownTook), 9)
        print(line)
    }
}
