/// Which event loop of a transport's group (``CurlEventLoopGroup``) takes a request, and how
/// many connections to the request's host that loop may hold for it. A value told when each
/// request is placed and when it ends, so its rules are tested without libcurl.
///
/// - Requests that may share an HTTP/2 connection go to one loop per connection group, with
///   the whole per-host limit: libcurl multiplexes only within one multi handle, so one loop
///   keeps one connection per origin.
/// - Other requests to a host may run on up to ``maximumConnectionsPerHost`` loops. The limit
///   is split between those loops, so the shares add up to it and none is 0.
/// - A request goes to the host's first loop that has fewer of the host's requests in flight
///   than its share, so requests one after another stay on one loop and reuse its
///   connection; when every loop is full, to the one least loaded for its share, so a burst
///   queues evenly.
/// - A host's loops start at one chosen from its group by a fixed hash, so hosts with few
///   connections each still land on different loops.
///
/// Memory: only hosts with requests in flight are counted, one entry each.
struct CurlLoopAssignment: Sendable {
    /// Where one request runs.
    struct Placement: Sendable, Equatable {
        /// The loop's index in the group.
        let loop: Int
        /// The most connections to the request's host this loop may hold at once: its share of
        /// the per-host limit, or the whole limit for requests that multiplex.
        let connections: Int
    }

    let loopCount: Int
    let maximumConnectionsPerHost: Int
    /// The connections of each position among a spread host's loops.
    private let shares: [Int]
    /// Requests in flight per connection group that is spread, per position among its loops.
    private var inFlight: [String: [Int]] = [:]

    /// Values below 1 count as 1, as the engine treats them.
    init(loopCount: Int, maximumConnectionsPerHost: Int) {
        self.loopCount = max(1, loopCount)
        self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
        let loopsPerHost = min(self.loopCount, self.maximumConnectionsPerHost)
        let (share, remainder) = self.maximumConnectionsPerHost.quotientAndRemainder(dividingBy: loopsPerHost)
        shares = (0..<loopsPerHost).map { share + ($0 < remainder ? 1 : 0) }
    }

    /// How many loops a spread host uses: never more than it may have connections.
    private var loopsPerHost: Int { shares.count }

    /// Places a request to a host of connection `group` (``CurlTransfer/connectionGroup``);
    /// report its end with ``ended(_:group:)``.
    mutating func place(group: String, multiplexes: Bool) -> Placement {
        let first = Self.firstLoop(of: group, among: loopCount)
        guard loopsPerHost > 1, !multiplexes else { return Placement(loop: first, connections: maximumConnectionsPerHost) }
        var counts = inFlight.removeValue(forKey: group) ?? Array(repeating: 0, count: loopsPerHost)
        defer { inFlight[group] = counts }
        let position = Self.position(for: counts, shares: shares)
        counts[position] += 1
        return placement(at: position, from: first)
    }

    /// A request placed at `placement` for `group` ended (answered, failed, cancelled or
    /// refused): its loop has room for another.
    mutating func ended(_ placement: Placement, group: String) {
        guard var counts = inFlight.removeValue(forKey: group) else { return }
        let position = (placement.loop - Self.firstLoop(of: group, among: loopCount) + loopCount) % loopCount
        if counts.indices.contains(position), counts[position] > 0 { counts[position] -= 1 }
        if counts.contains(where: { $0 > 0 }) { inFlight[group] = counts }
    }

    /// Every loop a host's requests of `group` may run on, each with its share.
    func placements(group: String, multiplexes: Bool) -> [Placement] {
        let first = Self.firstLoop(of: group, among: loopCount)
        guard loopsPerHost > 1, !multiplexes else { return [Placement(loop: first, connections: maximumConnectionsPerHost)] }
        return (0..<loopsPerHost).map { placement(at: $0, from: first) }
    }

    /// Hosts with requests in flight on several loops, for tests.
    var countedHosts: Int { inFlight.count }

    private func placement(at position: Int, from first: Int) -> Placement {
        Placement(loop: (first + position) % loopCount, connections: shares[position])
    }

    /// The first position with room; else the one with the fewest in flight for its share,
    /// the earliest of equals.
    private static func position(for counts: [Int], shares: [Int]) -> Int {
        if let free = counts.indices.first(where: { counts[$0] < shares[$0] }) { return free }
        let load = { (position: Int) in Double(counts[position]) / Double(shares[position]) }
        return counts.indices.min { load($0) < load($1) } ?? 0
    }

    /// A hash of `group` that is the same in every process (FNV-1a), so a host's loops do not
    /// change from run to run and tests can name them.
    static func firstLoop(of group: String, among loopCount: Int) -> Int {
        guard loopCount > 1 else { return 0 }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in group.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return Int(hash % UInt64(loopCount))
    }
}
