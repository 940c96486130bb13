#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierCurl
import CourierWebSocket
import Foundation

// The WebSocket rows, one client and one workload per process as the HTTP rows:
//
//   courier-benchmark websocket CLIENT ws://127.0.0.1:PORT WORKLOAD [SECONDS]   one JSON record
//
// CLIENT: ws-curl (Courier's WebSocket over CurlTransport), ws-urlsession (the same code over
// URLSessionTransport, which refuses where Foundation has no WebSockets: the record says so),
// ws-nio (the NIOWebSocket peer, WebSocketPeer.swift; echo rows only). WORKLOAD: see
// `WebSocketWorkload.all`. The server is `courier-benchmark websocket-server`.

func measureWebSocket(client name: String, base: String, workloadName: String, seconds: Double) async throws -> WebSocketRecord {
    guard let workload = WebSocketWorkload.named(workloadName) else { throw BenchmarkError.unknownWorkload(workloadName) }
    guard let url = URL(string: base + workload.path), let host = url.host, let port = url.port else {
        throw BenchmarkError.badURL(base + workload.path)
    }
    switch name {
    case "ws-curl":
        var configuration = CurlTransport.Configuration()
        // Every client may open the 64 sockets at once, as in the HTTP rows' pool.
        configuration.maximumConnectionsPerHost = 64
        let transport = try CurlTransport(configuration: configuration)
        let record = try await measureCourier("Courier curl", transport, url, workload, seconds: seconds)
        await transport.shutdown()
        return record
    case "ws-urlsession":
        let transport = URLSessionTransport()
        let record = try await measureCourier("URLSession", transport, url, workload, seconds: seconds)
        await transport.shutdown()
        return record
    case "ws-nio":
        guard case .echo(let messageBytes, let sockets) = workload.kind else {
            throw BenchmarkError.unknownClient("ws-nio on \(workload.name) (echo rows only)")
        }
        var record = WebSocketRecord(client: "NIOWebSocket client", workload: workload.name)
        record.idleRSSKiB = currentRSSKiB()
        let peers = try await withThrowingTaskGroup(of: NIOWebSocketPeer.self) { group in
            for _ in 0..<sockets {
                group.addTask { try await NIOWebSocketPeer.connect(host: host, port: port, path: workload.path, messageBytes: messageBytes) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let tally = try await timedEcho(seconds: seconds, into: &record) { deadline, limit in
            try await withThrowingTaskGroup(of: EchoTally.self) { group in
                for peer in peers { group.addTask { try await peer.echo(until: deadline, limit: limit) } }
                return try await group.reduce(into: EchoTally()) { $0.add($1) }
            }
        }
        record.add(tally)
        await withTaskGroup(of: Void.self) { group in
            for peer in peers { group.addTask { await peer.close() } }
        }
        record.maxRSSKiB = peakRSSKiB()
        return record
    default:
        throw BenchmarkError.unknownClient("\(name) (ws-curl, ws-urlsession, ws-nio)")
    }
}

/// Courier's WebSocket on any engine: the same code for CurlTransport and URLSessionTransport.
private func measureCourier(
    _ name: String, _ transport: some HTTPTransport, _ url: URL, _ workload: WebSocketWorkload, seconds: Double
) async throws -> WebSocketRecord {
    var record = WebSocketRecord(client: name, workload: workload.name)
    record.idleRSSKiB = currentRSSKiB()
    let request = URLRequest(url: url)
    switch workload.kind {
    case .echo(let messageBytes, let count):
        let sockets: [WebSocket]
        do {
            sockets = try await withThrowingTaskGroup(of: WebSocket.self) { group in
                for _ in 0..<count { group.addTask { try await transport.webSocket(for: request) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        } catch let refusal as RequestError {
            record.refused = refusal.description
            return record
        }
        // Built once, as the peer's payload is: the same bytes every time.
        let payload = WebSocket.Message.data(Data(repeating: 0x2A, count: messageBytes))
        let tally = try await timedEcho(seconds: seconds, into: &record) { deadline, limit in
            try await courierEcho(sockets, payload, until: deadline, limit: limit)
        }
        record.add(tally)
        await withTaskGroup(of: Void.self) { group in
            for socket in sockets { group.addTask { try? await socket.close() } }
        }
    case .stream(let messages, let messageBytes, let reads, let pause):
        let socket: WebSocket
        do {
            socket = try await transport.webSocket(for: request)
        } catch let refusal as RequestError {
            record.refused = refusal.description
            return record
        }
        try await readStream(socket, messages: reads ?? messages, messageBytes: messageBytes, pause: pause, into: &record)
        if reads == nil {
            // The whole stream was read: the server's close comes next and ends the sequence.
            var rest = socket.messages.makeAsyncIterator()
            if try await rest.next() != nil { record.failures += 1 }
        } else {
            try await socket.close()
        }
    }
    record.maxRSSKiB = peakRSSKiB()
    return record
}

/// One round trip on every socket, not measured (code paged in, buffers grown), then every
/// socket's loop until `seconds` have passed, timed and with the process's CPU.
private func timedEcho(
    seconds: Double, into record: inout WebSocketRecord,
    _ loops: (_ deadline: UInt64, _ limit: Int) async throws -> EchoTally
) async throws -> EchoTally {
    _ = try await loops(0, 1)
    let cpuBefore = processCPUSeconds()
    let start = monotonicNanoseconds()
    let tally = try await loops(start + UInt64(seconds * 1e9), .max)
    record.seconds = Double(monotonicNanoseconds() - start) / 1e9
    record.cpuSeconds = processCPUSeconds() - cpuBefore
    return tally
}

/// Each socket a sequential loop in a task of its own: send, read the echo, again.
private func courierEcho(_ sockets: [WebSocket], _ payload: WebSocket.Message, until deadline: UInt64, limit: Int) async throws
    -> EchoTally
{
    try await withThrowingTaskGroup(of: EchoTally.self) { group in
        for socket in sockets {
            group.addTask {
                var tally = EchoTally()
                var replies = socket.messages.makeAsyncIterator()
                repeat {
                    let sent = monotonicNanoseconds()
                    try await socket.send(payload)
                    guard let reply = try await replies.next() else { throw URLError(.networkConnectionLost) }
                    tally.roundTrips += 1
                    tally.latencies.append(monotonicNanoseconds() - sent)
                    if reply.size == payload.size { tally.bytes += reply.size } else { tally.failures += 1 }
                } while tally.roundTrips < limit && monotonicNanoseconds() < deadline
                return tally
            }
        }
        return try await group.reduce(into: EchoTally()) { $0.add($1) }
    }
}

/// Reads `messages` stamped messages, timed, sleeping `pause` after each; records how far ahead
/// of the reading the server's writing got.
private func readStream(
    _ socket: WebSocket, messages: Int, messageBytes: Int, pause: Duration?, into record: inout WebSocketRecord
) async throws {
    // Two stamps a message, 16 bytes each for the whole stream: 256 KiB for 1 GiB, reserved
    // before the RSS matters.
    var writtenAt: [UInt64] = []
    var readAt: [UInt64] = []
    writtenAt.reserveCapacity(messages)
    readAt.reserveCapacity(messages)
    var incoming = socket.messages.makeAsyncIterator()
    let cpuBefore = processCPUSeconds()
    let start = monotonicNanoseconds()
    while readAt.count < messages, let message = try await incoming.next() {
        let now = monotonicNanoseconds()
        guard case .data(let data) = message, data.count == messageBytes else {
            record.failures += 1
            continue
        }
        let (index, written) = data.withUnsafeBytes { bytes in
            (
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
        if index != UInt64(readAt.count) { record.failures += 1 }
        readAt.append(now)
        writtenAt.append(written)
        record.bytes += data.count
        if let pause { try await Task.sleep(for: pause) }
    }
    record.seconds = Double(monotonicNanoseconds() - start) / 1e9
    record.cpuSeconds = processCPUSeconds() - cpuBefore
    record.messages = readAt.count
    if readAt.count < messages { record.failures += messages - readAt.count }
    record.serverLeadMessages = serverLead(writtenAt: writtenAt, readAt: readAt)
}

/// The most messages the server had written beyond those the reader had taken: when it wrote
/// message i (its stamp), the reader had taken those read at or before that instant.
func serverLead(writtenAt: [UInt64], readAt: [UInt64]) -> Int {
    var taken = 0
    var lead = 0
    for (index, written) in writtenAt.enumerated() {
        while taken < readAt.count && readAt[taken] <= written { taken += 1 }
        lead = max(lead, index + 1 - taken)
    }
    return lead
}

extension WebSocketRecord {
    mutating func add(_ tally: EchoTally) {
        messages = tally.roundTrips
        failures += tally.failures
        bytes = tally.bytes
        let sorted = tally.latencies.sorted()
        p50Milliseconds = Self.percentileMilliseconds(0.50, of: sorted)
        p99Milliseconds = Self.percentileMilliseconds(0.99, of: sorted)
    }

    /// Nearest rank, as the HTTP rows' `Outcome.percentileMilliseconds`.
    private static func percentileMilliseconds(_ fraction: Double, of sorted: [UInt64]) -> Double? {
        guard !sorted.isEmpty else { return nil }
        let rank = min(sorted.count, max(1, Int((fraction * Double(sorted.count)).rounded(.up))))
        return Double(sorted[rank - 1]) / 1e6
    }
}

extension WebSocket.Message {
    /// The message's bytes: Courier's own count is package-level, out of this package's reach.
    fileprivate var size: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .data(let data): data.count
        }
    }
}
