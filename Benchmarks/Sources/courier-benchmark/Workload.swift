/// One row of the benchmark: what is requested and how many at once. Mirrors the table in
/// c/multi-get.c, so both sides run the same thing under the same name.
struct Workload: Sendable {
    var name: String
    var title: String
    var path: String
    /// Requests in flight; for a burst, all of them at once.
    var width: Int
    /// A fixed number of requests, or `nil` to run for the given seconds.
    var total: Int?
    /// Body bytes every response must have: a client cannot look fast by failing.
    var expectedBytes: Int
    var postBytes: Int = 0
    /// Connections to the host every client may open (libcurl's, the curl engine's and
    /// AsyncHTTPClient's per-host limit); requests beyond them wait in the client.
    var connections: Int = 64
    /// Requests to `/slow`, which nginx holds unanswered, kept open beside the workload's for the
    /// whole run and not counted: what open but silent transfers cost the others.
    var idle: Int = 0

    static let all: [Workload] = [
        Workload(name: "get13x1", title: "GET 13 B, 1 in flight", path: "/small", width: 1, total: nil, expectedBytes: 13),
        Workload(name: "get13x64", title: "GET 13 B, 64 in flight", path: "/small", width: 64, total: nil, expectedBytes: 13),
        Workload(name: "get1mx8", title: "GET 1 MiB, 8 in flight", path: "/1m", width: 8, total: nil, expectedBytes: 1 << 20),
        Workload(name: "get10mx1", title: "GET 10 MiB, 1 in flight", path: "/10m", width: 1, total: nil, expectedBytes: 10 << 20),
        Workload(name: "post64kx16", title: "POST 64 KiB, 16 in flight", path: "/post", width: 16, total: nil, expectedBytes: 2, postBytes: 64 << 10),
        Workload(name: "json64", title: "GET JSON, decoded, 64", path: "/json", width: 64, total: nil, expectedBytes: jsonBody.utf8.count),
        Workload(name: "burst2000", title: "2,000 at once, 64 conns", path: "/small", width: 2_000, total: 2_000, expectedBytes: 13),
        // Over TLS to nginx's h2 listener, every request multiplexed on one HTTP/2 connection
        // (clients curl-h2 and ahc-h2, given the https base URL). The upload goes to /upload,
        // where nginx reads the body: over HTTP/2 it counts a body it skips as a flood.
        Workload(name: "h2get13x1", title: "h2: GET 13 B, 1", path: "/small", width: 1, total: nil, expectedBytes: 13),
        Workload(name: "h2get13x64", title: "h2: GET 13 B, 64", path: "/small", width: 64, total: nil, expectedBytes: 13),
        Workload(name: "h2get1mx8", title: "h2: GET 1 MiB, 8", path: "/1m", width: 8, total: nil, expectedBytes: 1 << 20),
        Workload(
            name: "h2post64kx16", title: "h2: POST 64 KiB, 16", path: "/upload", width: 16, total: nil, expectedBytes: 2,
            postBytes: 64 << 10
        ),
        Workload(name: "h2burst2000", title: "h2: 2,000 at once", path: "/small", width: 2_000, total: 2_000, expectedBytes: 13),
        // Over HTTP/3 only, to the HTTP/3 server `run` starts (hypercorn, a Python server, not
        // nginx: Debian 12's has no QUIC), every request on one QUIC connection (clients curl-h3
        // and curl-h3-apiclient, and the C program, built on a libcurl with HTTP/3).
        Workload(name: "h3get13x1", title: "h3: GET 13 B, 1", path: "/small", width: 1, total: nil, expectedBytes: 13, connections: 1),
        Workload(name: "h3get13x64", title: "h3: GET 13 B, 64", path: "/small", width: 64, total: nil, expectedBytes: 13, connections: 1),
        Workload(name: "h3get1mx8", title: "h3: GET 1 MiB, 8", path: "/1m", width: 8, total: nil, expectedBytes: 1 << 20, connections: 1),
        // Not in the main table: 2,000 sequential small GETs with the allocation counter on.
        Workload(name: "allocs", title: "allocations", path: "/small", width: 1, total: 2_000, expectedBytes: 13),
        // One request, then 2 s idle: the transport's CPU when nothing is asked of it.
        Workload(name: "idle", title: "idle", path: "/small", width: 1, total: 1, expectedBytes: 13),
        // A whole process that makes one request: start-up time (timed from outside).
        Workload(name: "once", title: "once", path: "/small", width: 1, total: 1, expectedBytes: 13),
    ]

    static func named(_ name: String) -> Workload? {
        all.first { $0.name == name } ?? scaling(name)
    }

    static let scalingPrefix = "scale-"

    /// `scale-WIDTHxCONNECTIONS[-idleN]`: 13-byte GETs, WIDTH in flight over at most CONNECTIONS
    /// connections (beside N held-open requests), for the table of what a request costs as the
    /// work grows (`run --scale`).
    static func scaling(_ name: String) -> Workload? {
        guard name.hasPrefix(scalingPrefix) else { return nil }
        let parts = name.dropFirst(scalingPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let numbers = parts[0].split(separator: "x", omittingEmptySubsequences: false)
        guard numbers.count == 2, let width = Int(numbers[0]), let connections = Int(numbers[1]), width > 0, connections > 0
        else { return nil }
        var idle = 0
        if parts.count == 2 {
            guard parts[1].hasPrefix("idle"), let count = Int(parts[1].dropFirst(4)), count >= 0 else { return nil }
            idle = count
        }
        return Workload(
            name: name, title: "\(width) in flight, \(connections) conns" + (idle > 0 ? ", \(idle) idle" : ""), path: "/small",
            width: width, total: nil, expectedBytes: 13, connections: connections, idle: idle
        )
    }
}
