import Foundation

/// One WebSocket row: echo round trips over some sockets, or a stream the server writes as fast
/// as the connection takes it.
struct WebSocketWorkload: Sendable {
    enum Kind: Sendable {
        /// Each socket a sequential loop: send one binary message, read its echo, again.
        case echo(messageBytes: Int, sockets: Int)
        /// `messages` binary messages of `messageBytes` from the server; the client reads
        /// `reads` of them (all when nil), sleeping `pause` after each, then closes.
        case stream(messages: Int, messageBytes: Int, reads: Int?, pause: Duration?)
    }

    var name: String
    var title: String
    var kind: Kind

    /// The server's path for this row (see WebSocketServer.swift).
    var path: String {
        switch kind {
        case .echo: "/echo"
        case .stream(let messages, let bytes, _, _): "/stream?messages=\(messages)&bytes=\(bytes)"
        }
    }

    static let all: [WebSocketWorkload] = [
        WebSocketWorkload(name: "ws-echo1k-x1", title: "echo 1 KiB, 1 socket", kind: .echo(messageBytes: 1 << 10, sockets: 1)),
        WebSocketWorkload(name: "ws-echo1k-x64", title: "echo 1 KiB, 64 sockets", kind: .echo(messageBytes: 1 << 10, sockets: 64)),
        WebSocketWorkload(name: "ws-echo1m-x1", title: "echo 1 MiB, 1 socket", kind: .echo(messageBytes: 1 << 20, sockets: 1)),
        WebSocketWorkload(name: "ws-echo1m-x64", title: "echo 1 MiB, 64 sockets", kind: .echo(messageBytes: 1 << 20, sockets: 64)),
        // The same stream at 1/16 of the length: a bounded reader peaks at the same RSS for both.
        WebSocketWorkload(
            name: "ws-stream64m", title: "64 MiB stream, 1,024 × 64 KiB",
            kind: .stream(messages: 1 << 10, messageBytes: 64 << 10, reads: nil, pause: nil)),
        WebSocketWorkload(
            name: "ws-stream1g", title: "1 GiB stream, 16,384 × 64 KiB",
            kind: .stream(messages: 1 << 14, messageBytes: 64 << 10, reads: nil, pause: nil)),
        // A reader that takes ~1 ms per message (~60 MB/s) against a server that could write the
        // whole GiB in about a second: 2,048 messages (128 MiB) read, then a close.
        WebSocketWorkload(
            name: "ws-stream1g-slow", title: "1 GiB offered, slow reader",
            kind: .stream(messages: 1 << 14, messageBytes: 64 << 10, reads: 2_048, pause: .milliseconds(1))),
    ]

    static func named(_ name: String) -> WebSocketWorkload? {
        all.first { $0.name == name }
    }
}

/// One cell of the WebSocket rows, one JSON line, as `run --websocket` collects them.
struct WebSocketRecord: Codable, Sendable {
    var client: String
    var workload: String
    /// Echo round trips completed, or stream messages read.
    var messages: Int = 0
    var failures: Int = 0
    /// Payload bytes received in the checked messages (the echoes, or the stream's messages).
    var bytes: Int = 0
    var seconds: Double = 0
    var cpuSeconds: Double = 0
    var maxRSSKiB: Int = 0
    /// Resident set with the client made and no socket open yet.
    var idleRSSKiB: Int = 0
    /// Echo round-trip times, median and 99th percentile; absent for streams.
    var p50Milliseconds: Double? = nil
    var p99Milliseconds: Double? = nil
    /// Streams: the most messages the server had written beyond those the reader had taken,
    /// from the server's stamps and the reader's clock (both CLOCK_MONOTONIC).
    var serverLeadMessages: Int? = nil
    /// The engine's refusal, when it has no WebSockets: the row prints it instead of figures.
    var refused: String? = nil
    /// The server process's CPU seconds while this client ran (added by Benchmarks/run).
    var serverCPUSeconds: Double? = nil

    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
