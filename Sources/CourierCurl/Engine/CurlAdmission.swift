import Courier

/// Which transfers libcurl is given, per connection group (``CurlTransfer/connectionGroup``):
/// as many as the group's limit (``limit(_:scheme:connections:)``) at once, the rest waiting
/// here in submission order. A value the event loop feeds events and asks what to start, so its
/// rules are tested without libcurl or a socket. Curl thread only; one per event loop.
///
/// Generic over the transfer so that tests use stand-ins.
struct CurlAdmission<Transfer> {
    /// What a transfer that asks to run is to do.
    enum RequestAction: Equatable {
        /// Start it now; report ``started(in:)`` once it runs.
        case start
        /// It waits its turn: ``nextToStart()`` hands it out once its group has room.
        case queued
    }

    /// A waiting transfer, with its group's limit.
    private typealias Entry = (transfer: Transfer, limit: Int)

    /// Running transfers per group; a group without any has no entry.
    private var running: [String: Int] = [:]
    private var waiting: [String: FIFOQueue<Entry>] = [:]
    /// Groups in which a transfer ended while others waited, in the order they ended; those
    /// before `nextGroupWithRoom` have been given their room.
    private var groupsWithRoom: [String] = []
    private var nextGroupWithRoom = 0

    /// How many transfers of one connection group libcurl is given at once: as many as it can
    /// run, one per connection, or for requests that may share an HTTP/2 connection, the
    /// connections times the streams each may carry. The rest wait here rather than in libcurl,
    /// which would make each one an easy handle with its buffers and look at all of them on
    /// every turn (Benchmarks/README.md, "2,000 requests at once on 64 connections").
    ///
    /// `connections` is what the loop may hold to the host: its share of the per-host limit
    /// (``CurlLoopAssignment``), the whole limit when nil.
    static func limit(
        _ configuration: CurlTransport.Configuration, scheme: String?, connections: Int? = nil, multiplexes: Bool? = nil
    ) -> Int {
        let connections = max(1, connections ?? configuration.maximumConnectionsPerHost)
        guard multiplexes ?? configuration.httpVersion.multiplexes(scheme: scheme) else { return connections }
        let streams = max(1, configuration.maximumConcurrentStreamsPerConnection)
        let (limit, overflow) = connections.multipliedReportingOverflow(by: streams)
        return overflow ? Int.max : limit
    }

    /// A transfer asks to run: it starts when its group has room and nobody waits before it.
    ///
    /// Each event looks its group up once (hashing the group's name is most of its cost, paid
    /// by every request), and not at all in a table that is empty.
    mutating func request(_ transfer: Transfer, group: String, limit: Int) -> RequestAction {
        if waiting.isEmpty || waiting[group] == nil, running[group, default: 0] < limit { return .start }
        waiting[group, default: FIFOQueue()].append((transfer, limit))
        return .queued
    }

    /// A transfer of `group` joined the multi handle.
    mutating func started(in group: String) {
        running[group, default: 0] += 1
    }

    /// A running transfer of `group` left the multi handle: a waiting one may take its place.
    mutating func ended(in group: String) {
        if let index = running.index(forKey: group) {
            running.values[index] -= 1
            if running.values[index] <= 0 { running.remove(at: index) }
        }
        if !waiting.isEmpty, waiting[group] != nil { groupsWithRoom.append(group) }
    }

    /// The next waiting transfer whose group has room, taken off its queue; nil when none.
    /// Whoever takes it starts it (and reports ``started(in:)``), unless it ended while it
    /// waited (cancelled, timed out): it is then dropped, and the room goes to the next.
    mutating func nextToStart() -> Transfer? {
        while nextGroupWithRoom < groupsWithRoom.count {
            let group = groupsWithRoom[nextGroupWithRoom]
            // Taken out while it is worked on, so it is not copied on every change.
            if var queue = waiting.removeValue(forKey: group) {
                defer { if !queue.isEmpty { waiting[group] = queue } }
                // A group's transfers share a scheme and the transport's settings, and so a limit.
                if let next = queue.first, running[group, default: 0] < next.limit {
                    _ = queue.popFirst()
                    return next.transfer
                }
            }
            nextGroupWithRoom += 1
        }
        groupsWithRoom.removeAll(keepingCapacity: true)
        nextGroupWithRoom = 0
        return nil
    }

    /// Transfers waiting, ones that ended while they waited included until they are dropped.
    var waitingCount: Int {
        waiting.isEmpty ? 0 : waiting.values.reduce(0) { $0 + $1.count }
    }

    var hasWaiting: Bool { !waiting.isEmpty }

    /// Every waiting transfer, group by group, each group's in submission order.
    var waitingTransfers: some Sequence<Transfer> {
        waiting.values.lazy.flatMap { $0.queued.lazy.map(\.transfer) }
    }

    /// Forgets every waiting transfer, for a loop that shuts down.
    mutating func removeAllWaiting() {
        waiting.removeAll()
        groupsWithRoom.removeAll()
        nextGroupWithRoom = 0
    }
}
