import Foundation

private let echoWorkloads = ["ws-echo1k-x1", "ws-echo1k-x64", "ws-echo1m-x1", "ws-echo1m-x64"]
private let streamWorkloads = ["ws-stream64m", "ws-stream1g", "ws-stream1g-slow"]
private let courier = "Courier curl"
private let peer = "NIOWebSocket client"
private let clientOrder = [courier, peer, "URLSession"]

private func number(_ value: Double, _ width: Int, decimals: Int = 0) -> String {
    let text = value.isNaN || value.isInfinite ? "–" : String(format: "%.\(decimals)f", value)
    return String(repeating: " ", count: max(0, width - text.count)) + text
}

private func padded(_ text: String, _ width: Int) -> String {
    text.padding(toLength: width, withPad: " ", startingAt: 0)
}

/// Prints the tables of `run --websocket`: echo round trips against the NIOWebSocket peer, and
/// the streams' memory; medians over the runs, a refusing engine's error in place of figures.
func printWebSocketReport(results resultsPath: String) throws {
    guard let text = try? String(contentsOfFile: resultsPath, encoding: .utf8) else {
        throw BenchmarkError.unreadable(resultsPath)
    }
    let decoder = JSONDecoder()
    // A line that does not decode (a client that crashed) is skipped: it shows as a short run count.
    let records = text.split(separator: "\n").compactMap { try? decoder.decode(WebSocketRecord.self, from: Data($0.utf8)) }
    func cells(_ client: String, _ workload: String) -> [WebSocketRecord] {
        records.filter { $0.client == client && $0.workload == workload && $0.refused == nil && $0.seconds > 0 }
    }
    func refusal(_ client: String, _ workload: String) -> String? {
        records.first { $0.client == client && $0.workload == workload && $0.refused != nil }?.refused
    }
    func rate(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map { Double($0.messages) / $0.seconds })
    }
    func megabytes(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map { Double($0.bytes) / $0.seconds / 1e6 })
    }
    func cpuPerMessage(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).map { $0.cpuSeconds * 1e6 / Double(max($0.messages, 1)) })
    }
    func serverCPUPerMessage(_ client: String, _ workload: String) -> Double {
        median(cells(client, workload).compactMap { record in record.serverCPUSeconds.map { $0 * 1e6 / Double(max(record.messages, 1)) } })
    }
    func mebibytes(_ records: [WebSocketRecord], _ kib: (WebSocketRecord) -> Int) -> Double {
        median(records.map { Double(kib($0)) / 1024 })
    }
    let runs = records.filter { $0.refused == nil }.reduce(into: [String: Int]()) { $0[$1.client + $1.workload, default: 0] += 1 }.values.max() ?? 0

    print("WebSocket rows: a NIOWebSocket server on 127.0.0.1 (one event loop thread, its own process),")
    print("each cell its own client process, clients interleaved, median of \(runs) runs.")
    print("Courier curl = Courier's WebSocket over CurlTransport (send, then the next of messages, per socket);")
    print("NIOWebSocket client = NIOWebSocketClientUpgrader and a handler whose echo's last frame sends the next")
    print("message, on NIO's singleton group. Each socket one message in flight. MB/s = echoed payload a second,")
    print("one way. CPU = user+sys of the client process per round trip; server = the server's meanwhile.")
    print("")
    print("workload                client               round trips/s  ÷ NIO     MB/s  CPU µs/rt  ÷ NIO  server µs/rt  p50 ms  p99 ms  peak RSS MiB  fails")
    for workload in echoWorkloads {
        let title = WebSocketWorkload.named(workload)?.title ?? workload
        var titled = false
        for client in clientOrder {
            if let refused = refusal(client, workload) {
                print(padded(titled ? "" : title, 23), padded(client, 20), "refused: \(refused)")
                titled = true
                continue
            }
            let measured = cells(client, workload)
            guard !measured.isEmpty else { continue }
            defer { titled = true }
            print(
                padded(titled ? "" : title, 23),
                padded(client, 20),
                number(rate(client, workload), 14),
                number(rate(client, workload) / rate(peer, workload), 6, decimals: 2),
                number(megabytes(client, workload), 8, decimals: 1),
                number(cpuPerMessage(client, workload), 10, decimals: 1),
                number(cpuPerMessage(client, workload) / cpuPerMessage(peer, workload), 6, decimals: 2),
                number(serverCPUPerMessage(client, workload), 13, decimals: 1),
                number(median(measured.compactMap(\.p50Milliseconds)), 7, decimals: 3),
                number(median(measured.compactMap(\.p99Milliseconds)), 7, decimals: 3),
                number(mebibytes(measured, \.maxRSSKiB), 13, decimals: 1),
                number(Double(measured.reduce(0) { $0 + $1.failures }), 6)
            )
        }
    }

    print("")
    print("Streams: binary messages of 64 KiB that the server writes while the connection takes them. RSS before =")
    print("the client process with its transport made and no socket open; peak = getrusage's maximum RSS of the")
    print("whole process (median, and the largest of the runs). Server lead = the most messages the server had")
    print("written beyond those the reader had taken (its stamps against the reader's clock): what the kernel's")
    print("socket buffers, the engine and the socket's read-ahead held. Slow reader: 1 ms asleep after each message,")
    print("2,048 messages read, then a close.")
    print("")
    print("workload                         client          read MiB   MB/s  RSS before MiB  peak RSS MiB  largest peak  server lead: msgs   MiB  CPU s  fails")
    for workload in streamWorkloads {
        let title = WebSocketWorkload.named(workload)?.title ?? workload
        var titled = false
        for client in clientOrder {
            if let refused = refusal(client, workload) {
                print(padded(titled ? "" : title, 32), padded(client, 15), "refused: \(refused)")
                titled = true
                continue
            }
            let measured = cells(client, workload)
            guard !measured.isEmpty else { continue }
            defer { titled = true }
            let lead = median(measured.compactMap { $0.serverLeadMessages.map(Double.init) })
            let messageBytes: Double =
                if case .stream(_, let bytes, _, _)? = WebSocketWorkload.named(workload)?.kind { Double(bytes) } else { .nan }
            print(
                padded(titled ? "" : title, 32),
                padded(client, 15),
                number(median(measured.map { Double($0.bytes) / 1_048_576 }), 9),
                number(megabytes(client, workload), 6),
                number(mebibytes(measured, \.idleRSSKiB), 15, decimals: 1),
                number(mebibytes(measured, \.maxRSSKiB), 13, decimals: 1),
                number(Double(measured.map(\.maxRSSKiB).max() ?? 0) / 1024, 13, decimals: 1),
                number(lead, 18),
                number(lead * messageBytes / 1_048_576, 5, decimals: 1),
                number(median(measured.map(\.cpuSeconds)), 6, decimals: 2),
                number(Double(measured.reduce(0) { $0 + $1.failures }), 6)
            )
        }
    }

    print("")
    print("ratios, Courier curl ÷ NIOWebSocket client, this run")
    for workload in echoWorkloads {
        let title = WebSocketWorkload.named(workload)?.title ?? workload
        print(
            padded("  " + title, 26),
            "round trips/s", number(rate(courier, workload) / rate(peer, workload), 5, decimals: 2),
            "  CPU per round trip", number(cpuPerMessage(courier, workload) / cpuPerMessage(peer, workload), 5, decimals: 2)
        )
    }
}
