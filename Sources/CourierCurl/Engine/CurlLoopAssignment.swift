/// Which event loop of a transport's group (``CurlEventLoopGroup``) takes a request, and how
/// many connections to the request's host that loop may hold for it. A value with no state of
/// its own: the caller numbers requests (`ticket`), so the rules are tested without libcurl.
///
/// - Requests that may share an HTTP/2 connection go to one loop per connection group, with
///   the whole per-host limit: libcurl multiplexes only within one multi handle, so one loop
///   keeps one connection per origin.
/// - Other requests to a host are spread over up to ``maximumConnectionsPerHost`` loops in
///   turn, each loop keeping and reusing its own connections. The limit is split between
///   those loops, so the shares add up to it and none is 0; each loop is given requests in
///   proportion to its share.
/// - A host's loops start at one chosen from its group by a fixed hash, so hosts with few
///   connections each still land on different loops.
struct CurlLoopAssignment: Sendable, Equatable {
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

    /// Values below 1 count as 1, as the engine treats them.
    init(loopCount: Int, maximumConnectionsPerHost: Int) {
        self.loopCount = max(1, loopCount)
        self.maximumConnectionsPerHost = max(1, maximumConnectionsPerHost)
    }

    /// The loop for the request numbered `ticket` of those submitted to the transport, to a
    /// host of connection `group` (``CurlTransfer/connectionGroup``).
    func placement(group: String, multiplexes: Bool, ticket: UInt64) -> Placement {
        guard loopCount > 1 else { return Placement(loop: 0, connections: maximumConnectionsPerHost) }
        let first = Self.firstLoop(of: group, among: loopCount)
        guard !multiplexes else { return Placement(loop: first, connections: maximumConnectionsPerHost) }
        let loopsUsed = min(loopCount, maximumConnectionsPerHost)
        // Each of the limit's slots belongs to one loop, round-robin, so a loop is handed as
        // many of every `limit` consecutive tickets as it has connections.
        let slot = Int(ticket % UInt64(maximumConnectionsPerHost))
        return placement(at: slot % loopsUsed, from: first, loopsUsed: loopsUsed)
    }

    /// Every loop a host's requests of `group` run on, each with its share.
    func placements(group: String, multiplexes: Bool) -> [Placement] {
        let first = Self.firstLoop(of: group, among: loopCount)
        guard loopCount > 1, !multiplexes else { return [Placement(loop: first, connections: maximumConnectionsPerHost)] }
        let loopsUsed = min(loopCount, maximumConnectionsPerHost)
        return (0..<loopsUsed).map { placement(at: $0, from: first, loopsUsed: loopsUsed) }
    }

    private func placement(at position: Int, from first: Int, loopsUsed: Int) -> Placement {
        let (share, remainder) = maximumConnectionsPerHost.quotientAndRemainder(dividingBy: loopsUsed)
        return Placement(loop: (first + position) % loopCount, connections: share + (position < remainder ? 1 : 0))
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
