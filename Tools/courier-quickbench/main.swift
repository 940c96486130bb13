#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierTestServer
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Requests/s and CPU per request for small GETs (13–64-byte bodies) through URLSessionTransport
// and CurlTransport against the embedded server, at 1 and 64 in flight. Rounds alternate the
// transports so drift (thermal, other load) hits both alike; the table shows medians.
// A figure printer, not a test: run it with scripts/quickbench (release build).
//
// CPU is per-thread on-CPU time from /proc/self/task/*/schedstat (nanoseconds), split into the
// embedded server's threads (SwiftNIO names them "NIO-…") and everything else (the client:
// transport threads, the cooperative pool, URLSession's queues). getrusage would mix the two.

struct Measurement {
    var requestsPerSecond: Double
    var clientMicrosecondsPerRequest: Double
    var serverMicrosecondsPerRequest: Double
}

enum Kind: String, CaseIterable {
    case urlSession = "URLSession"
    case curl = "Curl"
    /// CurlTransport's engine alone, without the shared policy layers: what the layers cost is
    /// the difference between this row and the one above.
    case curlEngine = "Curl engine"
}

/// On-CPU nanoseconds of this process's live threads, split by whether SwiftNIO owns the thread.
/// Threads that exit during a measurement are lost, so transports stay alive across rounds.
func threadCPU() -> (client: UInt64, server: UInt64) {
    var client: UInt64 = 0
    var server: UInt64 = 0
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    for tid in tasks {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/schedstat", encoding: .utf8),
              let first = stat.split(separator: " ").first, let nanoseconds = UInt64(first) else { continue }
        let name = (try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)) ?? ""
        if name.hasPrefix("NIO-") { server += nanoseconds } else { client += nanoseconds }
    }
    return (client, server)
}

/// Sends `count` GETs with `width` in flight; the bodies cycle through 13…64 bytes and each is
/// checked, so a transport cannot look fast by failing.
func measure(_ networking: @escaping Networking, urls: [URL], count: Int, width: Int) async throws -> Measurement {
    let cpuBefore = threadCPU()
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        var next = 0
        func add() {
            let url = urls[next % urls.count]
            let expected = 13 + next % urls.count
            next += 1
            group.addTask {
                let (data, _) = try await networking(URLRequest(url: url))
                guard data.count == expected else { throw URLError(.cannotParseResponse) }
            }
        }
        while next < min(width, count) { add() }
        while try await group.next() != nil {
            if next < count { add() }
        }
    }
    let elapsed = start.duration(to: .now)
    let cpuAfter = threadCPU()
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let perRequest = { (before: UInt64, after: UInt64) in Double(after &- before) / 1000 / Double(count) }
    return Measurement(
        requestsPerSecond: Double(count) / seconds,
        clientMicrosecondsPerRequest: perRequest(cpuBefore.client, cpuAfter.client),
        serverMicrosecondsPerRequest: perRequest(cpuBefore.server, cpuAfter.server)
    )
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    guard !sorted.isEmpty else { return .nan }
    return sorted.count.isMultiple(of: 2)
        ? (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        : sorted[sorted.count / 2]
}

func format(_ value: Double, _ width: Int, decimals: Int = 0) -> String {
    let text = String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

func run(rounds: Int, scale: Double, only: Kind?) async throws {
    let server = try await TestServer.start()
    let curl = try CurlTransport()
    let urlSession = URLSessionTransport()
    let transports: [(Kind, Networking)] = [(.urlSession, urlSession.networking), (.curl, curl.networking), (.curlEngine, networking(curl.engine.exchange))]
        .filter { only == nil || $0.0 == only }
    let urls = (13...64).map { server.url("/bytes/\($0)") }
    // Counts sized for roughly a second per cell on a 2-core machine.
    let counts = [1: max(52, Int(2_000 * scale)), 64: max(520, Int(10_000 * scale))]

    // Warm-up: connections open, handles pooled, code paged in.
    for (_, networking) in transports {
        _ = try await measure(networking, urls: urls, count: 500, width: 64)
    }

    var results: [String: [Measurement]] = [:]
    for round in 0..<rounds {
        // Alternate which transport goes first, so neither always runs on a warmer process.
        let ordered = round.isMultiple(of: 2) ? transports : transports.reversed()
        for width in [1, 64] {
            for (kind, networking) in ordered {
                let count = counts[width] ?? 1_000
                let measurement = try await measure(networking, urls: urls, count: count, width: width)
                results["\(kind.rawValue)/\(width)", default: []].append(measurement)
            }
        }
    }

    print("small GETs (13–64-byte bodies), embedded server on 127.0.0.1, \(rounds) interleaved rounds, medians")
    print("CPU µs/request: client = all threads but the server's; server = SwiftNIO's threads")
    print("transport     in flight    req/s   (min–max)        client µs/req  server µs/req")
    for width in [1, 64] {
        for kind in Kind.allCases where only == nil || kind == only {
            let cells = results["\(kind.rawValue)/\(width)"] ?? []
            let rates = cells.map(\.requestsPerSecond)
            print(
                kind.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0),
                format(Double(width), 9),
                format(median(rates), 9),
                "  (\(format(rates.min() ?? .nan, 6))–\(format(rates.max() ?? .nan, 6)))",
                format(median(cells.map(\.clientMicrosecondsPerRequest)), 12, decimals: 1),
                format(median(cells.map(\.serverMicrosecondsPerRequest)), 14, decimals: 1)
            )
        }
    }
    for width in [1, 64] where only == nil {
        let ratio = median((results["Curl/\(width)"] ?? []).map(\.requestsPerSecond))
            / median((results["URLSession/\(width)"] ?? []).map(\.requestsPerSecond))
        print("Curl / URLSession requests/s at \(width) in flight: \(format(ratio, 0, decimals: 2))×")
        let rate = { (kind: Kind) in median((results["\(kind.rawValue)/\(width)"] ?? []).map(\.requestsPerSecond)) }
        let cpu = { (kind: Kind) in median((results["\(kind.rawValue)/\(width)"] ?? []).map(\.clientMicrosecondsPerRequest)) }
        print(
            "Policy layers on Curl at \(width) in flight: requests/s \(format((rate(.curl) / rate(.curlEngine) - 1) * 100, 0, decimals: 1))%,",
            "client CPU/request \(format((cpu(.curl) / cpu(.curlEngine) - 1) * 100, 0, decimals: 1))%"
        )
    }

    await curl.shutdown()
    urlSession.session.finishTasksAndInvalidate()
    try await server.shutdown()
}


/// `--path /bytes/1048576 --concurrency 8 [--count N]`: MB/s and CPU per request for one large
/// path through both transports, rounds interleaved; the body length is checked against the path's
/// number so a failing transport cannot look fast.
func runBulk(path: String, width: Int, count: Int, rounds: Int, only: Kind?) async throws {
    let server = try await TestServer.start()
    let curl = try CurlTransport()
    let urlSession = URLSessionTransport()
    let transports: [(Kind, Networking)] = [(.urlSession, urlSession.networking), (.curl, curl.networking), (.curlEngine, networking(curl.engine.exchange))]
        .filter { only == nil || $0.0 == only }
    let url = server.url(path)
    let expected = Int(path.split(separator: "/").last ?? "") ?? -1
    func once(_ networking: @escaping Networking, _ count: Int) async throws -> Measurement {
        let cpuBefore = threadCPU()
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                next += 1
                group.addTask {
                    let (data, _) = try await networking(URLRequest(url: url))
                    guard expected < 0 || data.count == expected else { throw URLError(.cannotParseResponse) }
                }
            }
            while next < min(width, count) { add() }
            while try await group.next() != nil { if next < count { add() } }
        }
        let elapsed = start.duration(to: .now)
        let cpuAfter = threadCPU()
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Measurement(
            requestsPerSecond: Double(count) / seconds,
            clientMicrosecondsPerRequest: Double(cpuAfter.client &- cpuBefore.client) / 1000 / Double(count),
            serverMicrosecondsPerRequest: Double(cpuAfter.server &- cpuBefore.server) / 1000 / Double(count)
        )
    }
    for (_, networking) in transports { _ = try await once(networking, max(8, count / 4)) }
    var results: [Kind: [Measurement]] = [:]
    for round in 0..<rounds {
        let ordered = round.isMultiple(of: 2) ? transports : transports.reversed()
        for (kind, networking) in ordered { results[kind, default: []].append(try await once(networking, count)) }
    }
    print("GET \(path), \(width) in flight, \(count) requests × \(rounds) interleaved rounds, medians")
    print("transport      req/s     MB/s   (min–max MB/s)   client µs/req  server µs/req")
    for kind in Kind.allCases where only == nil || kind == only {
        let cells = results[kind] ?? []
        let mb = cells.map { $0.requestsPerSecond * Double(max(0, expected)) / 1e6 }
        print(
            kind.rawValue.padding(toLength: 11, withPad: " ", startingAt: 0),
            format(median(cells.map(\.requestsPerSecond)), 9),
            format(median(mb), 8),
            "  (\(format(mb.min() ?? .nan, 6))–\(format(mb.max() ?? .nan, 6)))",
            format(median(cells.map(\.clientMicrosecondsPerRequest)), 14, decimals: 1),
            format(median(cells.map(\.serverMicrosecondsPerRequest)), 14, decimals: 1)
        )
    }
    await curl.shutdown()
    urlSession.session.finishTasksAndInvalidate()
    try await server.shutdown()
}

/// `--layers`: what the shared policy layers cost per call, measured over an engine that answers
/// at once from memory, so nothing but the layers is timed. One task calls in a loop; rounds
/// alternate the stacks and the table shows medians.
func runLayerCost(rounds: Int) async throws {
    guard let url = URL(string: "http://127.0.0.1:8080/bytes/13") else { return }
    let fields = [
        "Content-Type": "application/octet-stream", "Content-Length": "13", "Connection": "keep-alive",
        "Date": "Mon, 23 Nov 2026 16:00:00 GMT", "Server": "courier-test-server",
    ]
    guard let plain = HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: fields) else { return }
    let body = Data(count: 13)
    let engine: Networking = { _ in (body, plain) }
    let stacks: [(String, Networking)] = [
        ("engine alone", engine),
        ("default layers", Policies().apply(to: engine)),
    ]
    let request = URLRequest(url: url)
    let calls = 200_000
    var results: [String: [Double]] = [:]
    for round in 0..<(rounds + 1) {
        for (name, networking) in round.isMultiple(of: 2) ? stacks : stacks.reversed() {
            let start = ContinuousClock.now
            for _ in 0..<calls { _ = try await networking(request) }
            let elapsed = start.duration(to: .now)
            let nanoseconds = (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(calls)
            // Round 0 warms up.
            if round > 0 { results[name, default: []].append(nanoseconds) }
        }
    }
    let alone = median(results["engine alone"] ?? [])
    print("policy layers over an engine answering from memory, \(calls) calls × \(rounds) rounds, medians")
    for (name, _) in stacks {
        let cost = median(results[name] ?? [])
        print(name.padding(toLength: 40, withPad: " ", startingAt: 0), format(cost, 8, decimals: 0), "ns/call", name == "engine alone" ? "" : "(+\(format(cost - alone, 0, decimals: 0)) ns)")
    }
}

/// `--rounds N` (default 3), `--scale X` (request counts × X, default 1), and `--only curl`,
/// `--only "curl engine"` or `--only urlsession` to run one transport alone (for profiling one of them).
func option(_ name: String, default value: Double) -> Double {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
          let parsed = Double(arguments[index + 1]), parsed > 0 else { return value }
    return parsed
}

let rounds = max(1, Int(option("--rounds", default: 3)))
let scale = option("--scale", default: 1)
let only: Kind? = CommandLine.arguments.firstIndex(of: "--only").flatMap { index in
    Kind.allCases.first { index + 1 < CommandLine.arguments.count && $0.rawValue.lowercased() == CommandLine.arguments[index + 1].lowercased() }
}
let bulkPath = CommandLine.arguments.firstIndex(of: "--path").flatMap { index in
    index + 1 < CommandLine.arguments.count ? CommandLine.arguments[index + 1] : nil
}
do {
    if CommandLine.arguments.contains("--layers") {
        try await runLayerCost(rounds: rounds)
    } else if CommandLine.arguments.contains("--heads") {
        runHeadCost(rounds: rounds)
    } else if let bulkPath {
        let width = max(1, Int(option("--concurrency", default: 8)))
        let count = max(width, Int(option("--count", default: 400)))
        try await runBulk(path: bulkPath, width: width, count: count, rounds: rounds, only: only)
    } else {
        try await run(rounds: rounds, scale: scale, only: only)
    }
} catch {
    FileHandle.standardError.write(Data("courier-quickbench: \(error)\n".utf8))
    exit(1)
}
