import Foundation

/// The order of the table: the ceiling first, then Courier's transport, then the others.
private let clientOrder = [
    "C libcurl multi", "C, Courier's request", "Courier curl", "curl, exchange", "curl, own executor", "curl, both",
    "curl, APIClient", "curl, APIClient, no metrics", "curl, APIClient JSON", "curl, streamed", "AsyncHTTPClient", "AsyncHTTPClient JSON", "URLSession",
]
/// The clients every workload and figure has; the curl variants run only where they differ.
private let mainClients = ["C libcurl multi", "Courier curl", "AsyncHTTPClient", "URLSession"]
private let startupNames = [
    "c": "C libcurl multi", "curl": "Courier curl", "ahc": "AsyncHTTPClient", "urlsession": "URLSession",
    "curl-static": "Courier curl, static stdlib", "urlsession-static": "URLSession, static stdlib",
]
private let tableWorkloads = [
    "get13x1", "get13x64", "get1mx8", "get10mx1", "post64kx16", "burst2000", "json64",
    "h2get13x1", "h2get13x64", "h2get1mx8", "h2post64kx16", "h2burst2000",
    "h3get13x1", "h3get13x64", "h3get1mx8",
]
private let h3Workloads = ["h3get13x1", "h3get13x64", "h3get1mx8"]

func median(_ values: [Double]) -> Double {
    let sorted = values.filter { !$0.isNaN }.sorted()
    guard !sorted.isEmpty else { return .nan }
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

/// Half the range of the values, as a percentage of their median: how far apart the runs were.
func spread(_ values: [Double]) -> Double {
    let values = values.filter { !$0.isNaN }
    guard let low = values.min(), let high = values.max() else { return .nan }
    return (high - low) / 2 / median(values) * 100
}

/// One record's requests a second, MB a second, and client CPU µs per request.
private func requestRate(_ record: Record) -> Double { Double(record.requests) / record.seconds }
private func byteRate(_ record: Record) -> Double { Double(record.bytes) / record.seconds / 1e6 }
private func perRequestCPU(_ record: Record) -> Double { record.cpuSeconds * 1e6 / Double(max(record.requests, 1)) }

private func cell(_ value: Double, _ width: Int, decimals: Int = 0) -> String {
    let text = value.isNaN || value.isInfinite ? "–" : String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

private func left(_ text: String, _ width: Int) -> String {
    text.padding(toLength: width, withPad: " ", startingAt: 0)
}

func printReport(results resultsPath: String, startup startupPath: String) throws {
    guard let text = try? String(contentsOfFile: resultsPath, encoding: .utf8) else {
        throw BenchmarkError.unreadable(resultsPath)
    }
    let decoder = JSONDecoder()
    // A line that does not decode (a crashed client printing nothing, say) is skipped, not fatal:
    // its absence shows as a short run count in the table.
    let records = text.split(separator: "\n").compactMap { try? decoder.decode(Record.self, from: Data($0.utf8)) }
    var startupMicroseconds: [String: Double] = [:]
    for line in ((try? String(contentsOfFile: startupPath, encoding: .utf8)) ?? "").split(separator: "\n") {
        let parts = line.split(separator: " ")
        if parts.count == 2, let name = startupNames[String(parts[0])], let value = Double(parts[1]) {
            startupMicroseconds[name] = value
        }
    }
    func cells(_ client: String, _ workload: String) -> [Record] {
        records.filter { $0.client == client && $0.workload == workload && $0.seconds > 0 }
    }
    func rate(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map(requestRate))
    }
    func megabytes(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map(byteRate))
    }
    func cpuPerRequest(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map(perRequestCPU))
    }
    // Set by Benchmarks/run when the clients are pinned apart from nginx.
    let clientCores = ProcessInfo.processInfo.environment["COURIER_BENCH_CLIENT_CORES"].flatMap(Int.init)
    /// nginx's CPU per request while `client` ran `workload`, in microseconds.
    func serverCPUPerRequest(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).compactMap { record in
            record.serverCPUSeconds.map { $0 * 1e6 / Double(max(record.requests, 1)) }
        })
    }
    /// The CPU per request a client may spend and still serve `fraction` of the C program's
    /// requests a second on this machine, where nginx shares the cores: what the cores give at that
    /// rate, less what nginx takes per request (measured under the C program).
    /// Pinned, the client has its cores to itself and nginx takes none of them.
    func clientBudget(_ workload: String, _ fraction: Double) -> Double {
        let rate = fraction * rate(ceiling, workload)
        if let clientCores {
            return Double(clientCores) * 1e6 / rate
        }
        let cores = Double(ProcessInfo.processInfo.activeProcessorCount)
        return cores * 1e6 / rate - serverCPUPerRequest(ceiling, workload)
    }
    /// The ratio of one client's figure to another's within each run both finished, run by run:
    /// records pair by their run, or by their order where they carry none.
    func perRunRatios(
        _ figure: (Record) -> Double, _ client: String, _ workload: String, over other: String, _ otherWorkload: String
    ) -> [Double] {
        func byRun(_ client: String, _ workload: String) -> [Int: Record] {
            Dictionary(cells(client, workload).enumerated().map { ($1.run ?? $0, $1) }, uniquingKeysWith: { first, _ in first })
        }
        let mine = byRun(client, workload)
        let theirs = byRun(other, otherWorkload)
        return mine.sorted { $0.key < $1.key }.compactMap { run, record in theirs[run].map { figure(record) / figure($0) } }
    }
    let ceiling = clientOrder[0]
    let parityCeiling = clientOrder[1]

    let runs = tableWorkloads.map { workload in clientOrder.map { cells($0, workload).count }.max() ?? 0 }.max() ?? 0
    print("Courier transport benchmark: nginx on 127.0.0.1 (1 worker), each cell its own process,")
    print("clients interleaved, median of \(runs) runs. ×C = this client ÷ the C program (higher is better")
    print("for req/s, lower for CPU). CPU = user+sys of the client process per request. ± = half the")
    print("range of the runs (max − min) / 2, as % of the median.")
    print("C, Courier's request = the C program sending CurlTransport's header lines (URLSession")
    print("parity) and copying the response head out, as any client that answers with the head must.")
    print("Courier curl = CurlTransport.data(for:), the Networking function; exchange = transport.stream(for:) read whole,")
    print("no HTTPURLResponse; own executor = the driver's tasks prefer CurlTransport.executor; both = both.")
    print("APIClient = APIClient(baseURL:transport:).send of a Request<Data>; APIClient JSON decodes a")
    print("small object (AsyncHTTPClient JSON: execute, collect, JSONDecoder), with the C program as the GET ceiling;")
    print("no metrics = the same APIClient with CurlTransport.Configuration.recordsMetrics off.")
    print("h2 rows: HTTP/2 over TLS (ALPN), every request multiplexed on one connection (up to 2,000")
    print("streams at once); Courier curl = data(for:) with httpVersion .automatic, APIClient = the same")
    print("transport under APIClient.send, C = libcurl 2TLS + PIPEWAIT.")
    if h3Workloads.contains(where: { w in records.contains { $0.workload == w } }) {
        print("h3 rows: HTTP/3 only, one QUIC connection, to hypercorn (Python), which is the bottleneck: read")
        print("them by CPU µs/req, not req/s. Courier curl = data(for:) with httpVersion .http3Only, C = libcurl")
        print("3ONLY + PIPEWAIT. AsyncHTTPClient and URLSession have no HTTP/3: no h3 rows.")
    }
    print("")
    print("workload                    client                 req/s   ±%    ×C     MB/s   CPU µs/req   ±%    ×C  peak RSS MiB  fails")
    for workload in tableWorkloads {
        let title = Workload.named(workload)?.title ?? workload
        let ceilingRate = rate(ceiling, workload)
        let ceilingCPU = cpuPerRequest(ceiling, workload)
        var titled = false
        for client in clientOrder {
            let records = cells(client, workload)
            guard !records.isEmpty else { continue }
            defer { titled = true }
            print(
                left(titled ? "" : title, 27),
                left(client, 20),
                cell(rate(client, workload), 9),
                cell(spread(records.map(requestRate)), 4),
                cell(rate(client, workload) / ceilingRate, 5, decimals: 2),
                cell(megabytes(client, workload), 8, decimals: 1),
                cell(cpuPerRequest(client, workload), 12, decimals: 1),
                cell(spread(records.map(perRequestCPU)), 4),
                cell(cpuPerRequest(client, workload) / ceilingCPU, 5, decimals: 2),
                cell(median(records.map { Double($0.maxRSSKiB) / 1024 }), 13, decimals: 1),
                cell(Double(records.reduce(0) { $0 + $1.failures }), 6)
            )
        }
    }

    // The h3 rows' main figure: the client's CPU per request, beside the server's, which shows
    // that requests a second there are the Python server's rate, not the client's.
    if h3Workloads.contains(where: { w in records.contains { $0.workload == w } }) {
        print("")
        print("h3: client CPU µs/req (the figure to compare), ÷ C, and the server's CPU µs/req meanwhile")
        print("workload                    client               CPU µs/req   ÷ C   server CPU µs/req    req/s")
        for workload in h3Workloads {
            let title = Workload.named(workload)?.title ?? workload
            var titled = false
            for client in [ceiling, "Courier curl", "curl, APIClient"] {
                guard !cells(client, workload).isEmpty else { continue }
                defer { titled = true }
                print(
                    left(titled ? "" : title, 27),
                    left(client, 20),
                    cell(cpuPerRequest(client, workload), 11, decimals: 1),
                    cell(cpuPerRequest(client, workload) / cpuPerRequest(ceiling, workload), 5, decimals: 2),
                    cell(serverCPUPerRequest(client, workload), 19, decimals: 1),
                    cell(rate(client, workload), 8)
                )
            }
            if !titled { print(left(title, 27), "no client finished a cell") }
        }
        print("AsyncHTTPClient, URLSession: no HTTP/3.")
    }

    func allocationsPerRequest(_ client: String) -> Double {
        median(cells(client, "allocs").map { Double($0.allocations) / Double(max($0.requests, 1)) })
    }
    func idleMilliseconds(_ client: String) -> Double {
        median(records.filter { $0.client == client && $0.workload == "idle" }.map { $0.cpuSeconds * 1e3 })
    }
    /// Peak RSS while downloading 10 MiB bodies, above the RSS after warm-up, in bodies.
    func rssAboveIdle(_ client: String) -> Double {
        median(cells(client, "get10mx1").map { Double($0.maxRSSKiB - $0.idleRSSKiB) / Double(10 << 10) })
    }
    print("")
    print("client                 allocs/GET   idle CPU ms/2s   start-up ms   ×C   10 MiB peak above idle (× body)")
    let ceilingStartup = startupMicroseconds[ceiling] ?? .nan
    let harness = allocationsPerRequest("harness only")
    for client in clientOrder where mainClients.contains(client) || !cells(client, "allocs").isEmpty {
        let startup = startupMicroseconds[client] ?? .nan
        print(
            left(client, 20),
            cell(allocationsPerRequest(client), 12, decimals: 1),
            cell(client == ceiling ? .nan : idleMilliseconds(client), 16, decimals: 1),
            cell(startup / 1000, 13, decimals: 1),
            cell(startup / ceilingStartup, 5, decimals: 2),
            cell(rssAboveIdle(client), 17, decimals: 2)
        )
    }
    print("allocs/GET: malloc/calloc/realloc/aligned calls per sequential 13-byte GET, whole process, counted")
    print("by CAllocationCounter; the driver alone (no client) makes \(cell(harness, 0, decimals: 1)) of them, not subtracted above.")
    print("The C program's count is libcurl's own work per request; Courier's transport path is what a")
    print("Courier client makes beyond it and the driver (the targets below).")
    print("start-up: median wall time of a process that makes one GET and exits (Courier: courier-once, which")
    print("links only Courier; AsyncHTTPClient: courier-benchmark). With --static-swift-stdlib (libc and libcurl")
    print("still shared, as for C): Courier curl \(cell((startupMicroseconds["Courier curl, static stdlib"] ?? .nan) / 1000, 0, decimals: 1)) ms, URLSession \(cell((startupMicroseconds["URLSession, static stdlib"] ?? .nan) / 1000, 0, decimals: 1)) ms.")

    let curl = "Courier curl"
    let light = "curl, exchange"
    let client = "curl, APIClient"
    let both = "curl, both"
    let ahc = "AsyncHTTPClient"
    let libcurlOwn = allocationsPerRequest(ceiling)
    let targets: [(String, Double, String, Bool)] = [
        ("curl ÷ C req/s, 64 in flight", rate(curl, "get13x64") / rate(ceiling, "get13x64"), "≥ 0.90", true),
        ("  exchange ÷ C, 64 in flight", rate(light, "get13x64") / rate(ceiling, "get13x64"), "≥ 0.90", true),
        ("curl ÷ C req/s, 1 in flight", rate(curl, "get13x1") / rate(ceiling, "get13x1"), "≥ 0.80", true),
        ("  both ÷ C, 1 in flight", rate(both, "get13x1") / rate(ceiling, "get13x1"), "≥ 0.80", true),
        ("APIClient.send ÷ C req/s, 1 in flight", rate(client, "get13x1") / rate(ceiling, "get13x1"), "≥ 0.70", true),
        ("  APIClient ÷ AsyncHTTPClient, 1 in flight", rate(client, "get13x1") / rate("AsyncHTTPClient", "get13x1"), "(stated)", true),
        ("curl ÷ C MB/s, 1 MiB × 8", megabytes(curl, "get1mx8") / megabytes(ceiling, "get1mx8"), "≥ 0.90", true),
        ("curl ÷ C MB/s, 10 MiB × 1", megabytes(curl, "get10mx1") / megabytes(ceiling, "get10mx1"), "≥ 0.90", true),
        ("  streamed ÷ C MB/s, 10 MiB × 1", megabytes("curl, streamed", "get10mx1") / megabytes(ceiling, "get10mx1"), "≥ 0.90", true),
        ("  streamed ÷ C MB/s, 1 MiB × 8", megabytes("curl, streamed", "get1mx8") / megabytes(ceiling, "get1mx8"), "≥ 0.90", true),
        ("APIClient ÷ C req/s, POST 64 KiB × 16", rate(client, "post64kx16") / rate(ceiling, "post64kx16"), "≥ 0.90", true),
        ("  data(for:) ÷ C, POST 64 KiB × 16", rate(curl, "post64kx16") / rate(ceiling, "post64kx16"), "(stated)", true),
        ("APIClient ÷ AHC req/s, 2,000 at once", rate(client, "burst2000") / rate("AsyncHTTPClient", "burst2000"), "≥ 1.20", true),
        ("  data(for:) ÷ AHC, 2,000 at once", rate(curl, "burst2000") / rate("AsyncHTTPClient", "burst2000"), "(stated)", true),
        ("APIClient.send ÷ C req/s, 64", rate(client, "get13x64") / rate(ceiling, "get13x64"), "≥ 0.90", true),
        ("APIClient.send ÷ AsyncHTTPClient, 64", rate(client, "get13x64") / rate("AsyncHTTPClient", "get13x64"), "≥ 1.30", true),
        ("data(for:) ÷ C req/s, 64", rate(curl, "get13x64") / rate(ceiling, "get13x64"), "≥ 0.70", true),
        ("APIClient JSON ÷ AHC + JSONDecoder, 64", rate("curl, APIClient JSON", "json64") / rate("AsyncHTTPClient JSON", "json64"), "(stated)", true),
        ("APIClient allocs/GET beyond libcurl's", allocationsPerRequest(client) - harness - libcurlOwn, "≤ 15", false),
        ("metrics on ÷ off req/s, 64", rate(client, "get13x64") / rate("curl, APIClient, no metrics", "get13x64"), "≥ 0.97", true),
        ("curl ÷ AsyncHTTPClient req/s, 64", rate(curl, "get13x64") / rate("AsyncHTTPClient", "get13x64"), "≥ 1.40", true),
        ("  exchange ÷ AsyncHTTPClient, 64", rate(light, "get13x64") / rate("AsyncHTTPClient", "get13x64"), "≥ 1.40", true),
        ("curl ÷ URLSession req/s, 64", rate(curl, "get13x64") / rate("URLSession", "get13x64"), "(stated)", true),
        ("curl ÷ AHC req/s, h2 1 in flight", rate(curl, "h2get13x1") / rate(ahc, "h2get13x1"), "≥ 1.00", true),
        ("curl ÷ AHC req/s, h2 64 in flight", rate(curl, "h2get13x64") / rate(ahc, "h2get13x64"), "≥ 1.00", true),
        ("curl ÷ AHC MB/s, h2 1 MiB × 8", megabytes(curl, "h2get1mx8") / megabytes(ahc, "h2get1mx8"), "≥ 1.00", true),
        ("curl ÷ AHC req/s, h2 POST 64 KiB × 16", rate(curl, "h2post64kx16") / rate(ahc, "h2post64kx16"), "≥ 1.00", true),
        ("curl ÷ AHC req/s, h2 2,000 at once", rate(curl, "h2burst2000") / rate(ahc, "h2burst2000"), "≥ 1.00", true),
        ("curl 10 MiB peak RSS above idle", rssAboveIdle(curl), "≤ 3.00 × body", false),
        ("curl allocs/GET beyond libcurl's", allocationsPerRequest(curl) - harness - libcurlOwn, "≤ 20", false),
        ("  exchange allocs/GET beyond", allocationsPerRequest(light) - harness - libcurlOwn, "≤ 20", false),
        ("curl idle CPU over 2 s (ms)", idleMilliseconds(curl), "0", false),
        ("curl ÷ C start-up + 1 request", (startupMicroseconds[curl] ?? .nan) / ceilingStartup, "≤ 1.30", false),
        ("  same, static Swift stdlib", (startupMicroseconds["Courier curl, static stdlib"] ?? .nan) / ceilingStartup, "≤ 1.30", false),
    ]
    printTargets("targets", targets)

    // Half the work per request, done when these hold: the APIClient path, the path
    // users call, against the C program sending Courier's request and against AsyncHTTPClient, in
    // the same run. Each ratio is of the medians, beside its range over the runs' own ratios.
    let parity = parityCeiling
    func versusAHC(_ name: String, _ workload: String, json: Bool = false, bytes: Bool = false) -> RangedTarget {
        let mine: String = json ? "curl, APIClient JSON" : client
        let theirs: String = json ? "AsyncHTTPClient JSON" : ahc
        func figure(_ record: Record) -> Double { bytes ? byteRate(record) : requestRate(record) }
        let value = median(cells(mine, workload).map(figure)) / median(cells(theirs, workload).map(figure))
        return (name, value, perRunRatios(figure, mine, workload, over: theirs, workload), "≥ 1.30", true)
    }
    let halfTheWork: [RangedTarget] = [
        ("APIClient ÷ C-parity CPU µs/req, × 1", cpuPerRequest(client, "get13x1") / cpuPerRequest(parity, "get13x1"),
         perRunRatios(perRequestCPU, client, "get13x1", over: parity, "get13x1"), "≤ 2.00", false),
        ("APIClient ÷ C-parity CPU µs/req, × 64", cpuPerRequest(client, "get13x64") / cpuPerRequest(parity, "get13x64"),
         perRunRatios(perRequestCPU, client, "get13x64", over: parity, "get13x64"), "≤ 2.00", false),
        ("APIClient ÷ C-parity req/s, × 1", rate(client, "get13x1") / rate(parity, "get13x1"),
         perRunRatios(requestRate, client, "get13x1", over: parity, "get13x1"), "≥ 0.60", true),
        ("APIClient ÷ C-parity req/s, × 64", rate(client, "get13x64") / rate(parity, "get13x64"),
         perRunRatios(requestRate, client, "get13x64", over: parity, "get13x64"), "≥ 0.70", true),
        versusAHC("APIClient ÷ AHC, GET 13 B × 1", "get13x1"),
        versusAHC("APIClient ÷ AHC, GET 13 B × 64", "get13x64"),
        versusAHC("APIClient ÷ AHC MB/s, GET 1 MiB × 8", "get1mx8", bytes: true),
        versusAHC("APIClient ÷ AHC MB/s, GET 10 MiB × 1", "get10mx1", bytes: true),
        versusAHC("APIClient ÷ AHC, POST 64 KiB × 16", "post64kx16"),
        versusAHC("APIClient ÷ AHC, 2,000 at once", "burst2000"),
        versusAHC("APIClient JSON ÷ AHC + JSONDecoder", "json64", json: true),
        versusAHC("APIClient ÷ AHC, h2 GET 13 B × 1", "h2get13x1"),
        versusAHC("APIClient ÷ AHC, h2 GET 13 B × 64", "h2get13x64"),
        versusAHC("APIClient ÷ AHC MB/s, h2 1 MiB × 8", "h2get1mx8", bytes: true),
        versusAHC("APIClient ÷ AHC, h2 POST 64 KiB × 16", "h2post64kx16"),
        versusAHC("APIClient ÷ AHC, h2 2,000 at once", "h2burst2000"),
        // Counted once, not per run: the whole process's calls per GET, the driver's included.
        ("APIClient allocs/GET, whole process", allocationsPerRequest(client), [], "≤ 40", false),
    ]
    printRangedTargets("targets: half the work per request (APIClient over CurlTransport), ratios of medians", halfTheWork)

    // What the C-relative targets leave a client on this machine, in CPU per request: the C
    // program is one thread, so at 64 in flight a client with more threads has the rest of the
    // cores, less nginx's share.
    let floors: [(String, Double, String, Bool)] = [
        ("C, Courier's request ÷ C, GET × 64", rate(parityCeiling, "get13x64") / rate(ceiling, "get13x64"), "(stated)", true),
        ("C, Courier's request ÷ C, GET × 1", rate(parityCeiling, "get13x1") / rate(ceiling, "get13x1"), "(stated)", true),
        ("C, Courier's request ÷ C, POST", rate(parityCeiling, "post64kx16") / rate(ceiling, "post64kx16"), "(stated)", true),
        ("nginx CPU µs/req under C, GET × 64", serverCPUPerRequest(ceiling, "get13x64"), "(stated)", true),
        ("client CPU µs/req 0.9× C leaves, × 64", clientBudget("get13x64", 0.9), "(stated)", true),
        ("  C, Courier's request: CPU µs/req", cpuPerRequest(parityCeiling, "get13x64"), "(stated)", true),
        ("  APIClient: CPU µs/req", cpuPerRequest(client, "get13x64"), "(stated)", true),
        ("client CPU µs/req 0.9× C leaves, POST", clientBudget("post64kx16", 0.9), "(stated)", true),
        ("  C, Courier's request: CPU µs/req", cpuPerRequest(parityCeiling, "post64kx16"), "(stated)", true),
        ("  APIClient: CPU µs/req", cpuPerRequest(client, "post64kx16"), "(stated)", true),
    ]
    let machine = clientCores.map { "\($0) client core(s), nginx on its own" } ?? "\(ProcessInfo.processInfo.activeProcessorCount) cores shared with nginx"
    printTargets("what the C program's targets leave a client on this machine (\(machine))", floors)
}

/// One target a line: its name, the measured value, the goal and whether it was met.
private func printTargets(_ title: String, _ targets: [(String, Double, String, Bool)]) {
    print("")
    print(title)
    for (name, value, goal, higherIsBetter) in targets {
        print(left(name, 38), cell(value, 8, decimals: 2), left(" " + goal, 16), verdict(value, goal, higherIsBetter))
    }
}

/// A target with the value's range over the runs: name, value, the per-run values, goal, direction.
private typealias RangedTarget = (String, Double, [Double], String, Bool)

/// As `printTargets`, with each value's lowest and highest run beside it (none for a figure
/// measured once).
private func printRangedTargets(_ title: String, _ targets: [RangedTarget]) {
    print("")
    print(title)
    print(left("", 38), left("  median", 8), left(" goal", 16), left("", 12), "runs: lowest–highest")
    for (name, value, runs, goal, higherIsBetter) in targets {
        let range = runs.isEmpty ? "" : "\(cell(runs.min() ?? .nan, 0, decimals: 2))–\(cell(runs.max() ?? .nan, 0, decimals: 2)) (\(runs.count))"
        print(left(name, 38), cell(value, 8, decimals: 2), left(" " + goal, 16), left(verdict(value, goal, higherIsBetter), 12), range)
    }
}

/// "met" or "MISSED" against a goal such as "≥ 1.30", nothing for "(stated)".
private func verdict(_ value: Double, _ goal: String, _ higherIsBetter: Bool) -> String {
    if value.isNaN { return "not measured" }
    if goal == "(stated)" { return "" }
    let bound = Double(goal.split(separator: " ").dropFirst().first ?? "") ?? 0
    // "no CPU when idle": below 1 ms in 2 s, since rusage itself has tick granularity.
    let met = goal == "0" ? value < 1 : higherIsBetter ? value >= bound : value <= bound
    return met ? "met" : "MISSED"
}
