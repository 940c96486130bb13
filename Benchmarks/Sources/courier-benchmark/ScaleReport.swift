import Foundation

/// The order of the scaling table: the C ceilings first, then Courier's curl engine, then AHC.
private let scaleClientOrder = [
    "C libcurl multi", "C libcurl multi, own queue", "C libcurl multi_socket", "C libcurl multi_socket, own queue",
    "curl, exchange", "curl, APIClient", "AsyncHTTPClient",
]

/// One point of the scaling table: requests in flight over a connection limit.
private struct ScalePoint: Hashable, Comparable {
    var width: Int
    var connections: Int
    var idle: Int

    init?(workload name: String) {
        guard let workload = Workload.scaling(name) else { return nil }
        (width, connections, idle) = (workload.width, workload.connections, workload.idle)
    }

    var label: String { "\(width) × \(connections)" + (idle > 0 ? " +\(idle) open" : "") }

    static func < (a: ScalePoint, b: ScalePoint) -> Bool {
        (a.idle > 0 ? 1 : 0, a.width, a.connections, a.idle) < (b.idle > 0 ? 1 : 0, b.width, b.connections, b.idle)
    }
}

private func column(_ value: Double, _ width: Int, decimals: Int = 0) -> String {
    let text = value.isNaN || value.isInfinite ? "–" : String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

private func padded(_ text: String, _ width: Int) -> String {
    text.padding(toLength: width, withPad: " ", startingAt: 0)
}

/// Prints the table of `run --scale`: per point (in flight × connections) and client, the
/// medians over the runs of requests/s, CPU per request, and p50 and p99 latency, with ratios to
/// the C program; then each client's CPU per request at every point, to read its curve.
func printScaleReport(results resultsPath: String) throws {
    guard let text = try? String(contentsOfFile: resultsPath, encoding: .utf8) else {
        throw BenchmarkError.unreadable(resultsPath)
    }
    let decoder = JSONDecoder()
    let records = text.split(separator: "\n")
        .compactMap { try? decoder.decode(Record.self, from: Data($0.utf8)) }
        .filter { $0.seconds > 0 && $0.workload.hasPrefix(Workload.scalingPrefix) }
    let points = Set(records.compactMap { ScalePoint(workload: $0.workload) }).sorted()
    let clients = scaleClientOrder.filter { name in records.contains { $0.client == name } }
        + Set(records.map(\.client)).subtracting(scaleClientOrder).sorted()
    func cells(_ client: String, _ point: ScalePoint) -> [Record] {
        records.filter { $0.client == client && ScalePoint(workload: $0.workload) == point }
    }
    func rate(_ client: String, _ point: ScalePoint) -> Double {
        median(cells(client, point).map { Double($0.requests) / $0.seconds })
    }
    func cpu(_ client: String, _ point: ScalePoint) -> Double {
        median(cells(client, point).map { $0.cpuSeconds * 1e6 / Double(max($0.requests, 1)) })
    }
    func latency(_ client: String, _ point: ScalePoint, _ value: KeyPath<Record, Double?>) -> Double {
        median(cells(client, point).map { $0[keyPath: value] ?? .nan })
    }
    let ceiling = scaleClientOrder[0]
    let runs = points.flatMap { point in clients.map { cells($0, point).count } }.max() ?? 0

    print("Cost as the work grows: 13-byte GETs, N in flight over at most C connections to one nginx")
    print("worker; each cell its own process, clients interleaved, median of \(runs) runs. CPU = user+sys")
    print("of the client process per request; latency = submission → body complete, per request, p50")
    print("and p99 of each run, median over the runs. ×C = ÷ the C program (libcurl multi, curl_multi_poll).")
    print("C multi = curl_multi_poll, multi_socket = curl_multi_socket_action + epoll; own queue = requests")
    print("beyond the connections wait in the program (as in Courier's engine), else in libcurl's pending list.")
    print("curl, exchange = CurlTransport.stream(for:) read whole, no HTTPURLResponse; curl, APIClient = APIClient.send over")
    print("the transport, what users call. +N open: N more requests nginx holds unanswered (/slow) stay")
    print("open beside the measured ones for the whole run, on connections of their own, and are not counted.")
    print("")
    print("in flight × conns       client                                req/s    ×C  CPU µs/req    ×C   p50 ms    p99 ms  fails")
    for point in points {
        var titled = false
        for client in clients {
            let found = cells(client, point)
            guard !found.isEmpty else { continue }
            defer { titled = true }
            print(
                padded(titled ? "" : point.label, 23),
                padded(client, 33),
                column(rate(client, point), 9),
                column(rate(client, point) / rate(ceiling, point), 5, decimals: 2),
                column(cpu(client, point), 11, decimals: 1),
                column(cpu(client, point) / cpu(ceiling, point), 5, decimals: 2),
                column(latency(client, point, \.p50Milliseconds), 8, decimals: 2),
                column(latency(client, point, \.p99Milliseconds), 9, decimals: 2),
                column(Double(found.reduce(0) { $0 + $1.failures }), 6)
            )
        }
    }

    // The curve: each client's CPU per request at every point, and as a multiple of its own at
    // the first point, so a climb with connections or with requests in flight shows at a glance.
    print("")
    print("CPU µs per request (× the client's own at \(points.first?.label ?? "–"))")
    print(padded("", 33), points.map { padded("  " + $0.label, 22) }.joined(separator: " "))
    for client in clients {
        let first = points.first.map { cpu(client, $0) } ?? .nan
        let row = points.map { point -> String in
            let value = cpu(client, point)
            return padded(column(value, 7, decimals: 1) + " (" + column(value / first, 0, decimals: 2) + ")", 22)
        }
        print(padded(client, 33), row.joined(separator: " "))
    }
}
