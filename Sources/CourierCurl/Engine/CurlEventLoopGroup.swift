import Courier
import Synchronization

/// The event loops of one transport, each with its own thread, multi handle and connections
/// (``CurlTransport/Configuration-swift.struct/eventLoopCount``), and the rules that place
/// each request on one of them (``CurlLoopAssignment``).
///
/// A transfer stays on the loop it was placed on from submission to its end: its
/// cancellation, its streamed body's and upload's resumptions all go to that loop. It holds a
/// ``CurlLoopLease`` until then, which tells the assignment when it ended.
final class CurlEventLoopGroup: Sendable {
    /// The most loops one transport runs, so that a mistaken setting cannot ask for thousands
    /// of threads: each loop is a thread, a multi handle and a few descriptors.
    static let maximumCount = 256

    let loops: [CurlEventLoop]
    /// The Alt-Svc cache file every loop's handles share; nil when the transport keeps none.
    let altSvcFile: CurlAltSvcFile?
    let maximumConnectionsPerHost: Int
    private let assignment: Locked<CurlLoopAssignment>

    init(configuration: CurlTransport.Configuration) throws(CurlError) {
        let count = configuration.eventLoopCount
        guard (1...Self.maximumCount).contains(count) else {
            throw CurlError(
                kind: .option, curlCode: 0,
                message: "eventLoopCount is \(count); it must be from 1 to \(Self.maximumCount)"
            )
        }
        // One Alt-Svc cache file for every loop's handles, so an answer reaches them all.
        let altSvcFile = try CurlAltSvcFile(configuration.altSvcCache)
        var loops: [CurlEventLoop] = []
        loops.reserveCapacity(count)
        do throws(CurlError) {
            for _ in 0..<count { loops.append(try CurlEventLoop(configuration: configuration, altSvcFile: altSvcFile)) }
        } catch {
            // The loops already running stop on their own once told; nothing waits for them.
            for loop in loops { loop.shutDown() }
            throw error
        }
        self.loops = loops
        self.altSvcFile = altSvcFile
        maximumConnectionsPerHost = max(1, configuration.maximumConnectionsPerHost)
        assignment = Locked(CurlLoopAssignment(loopCount: count, maximumConnectionsPerHost: configuration.maximumConnectionsPerHost))
    }

    /// The loop a request to `group` runs on, the connections to its host that loop may hold
    /// for it, and the lease the request holds until it ends (none with one loop: there is
    /// nothing to choose).
    func place(group: String, multiplexes: Bool) -> (loop: CurlEventLoop, connections: Int, lease: CurlLoopLease?) {
        guard loops.count > 1 else { return (loops[0], maximumConnectionsPerHost, nil) }
        let placement = assignment.withLock { $0.place(group: group, multiplexes: multiplexes) }
        // Requests that multiplex always go to their origin's loop: nothing counts them.
        let lease = multiplexes ? nil : CurlLoopLease(placement: placement, group: group, assignment: assignment)
        return (loops[placement.loop], placement.connections, lease)
    }

    /// Hosts whose requests are counted on several loops, for tests.
    var countedHosts: Int { assignment.withLock { $0.countedHosts } }

    /// The loop a task that prefers the transport's executor runs on.
    var first: CurlEventLoop { loops[0] }

    /// Tells every loop to stop; returns at once.
    func shutDown() {
        for loop in loops { loop.shutDown() }
    }

    /// Returns once every loop has released its handles, its multi handle and its thread.
    func awaitTermination() async {
        for loop in loops { await loop.awaitTermination() }
    }

    /// The loops' counts added up; terminated once every loop is.
    var statistics: CurlEventLoop.Statistics {
        loops.dropFirst().reduce(into: loops[0].statistics) { total, loop in
            let counts = loop.statistics
            total.running += counts.running
            total.waiting += counts.waiting
            total.pausedByBackPressure += counts.pausedByBackPressure
            total.liveHandles += counts.liveHandles
            total.idleHandles += counts.idleHandles
            total.violations += counts.violations
            total.started += counts.started
            total.isTerminated = total.isTerminated && counts.isTerminated
        }
    }

    /// Whether the caller runs on one of the loops' threads.
    var isCurrentThread: Bool { loops.contains { $0.isCurrentThread } }
}

/// A request's place on a loop, given back once, when the request ends whichever way, or when
/// the last reference to it goes.
final class CurlLoopLease: Sendable {
    private let placement: CurlLoopAssignment.Placement
    private let group: String
    private let assignment: Locked<CurlLoopAssignment>
    private let isGivenBack = Atomic<Bool>(false)

    init(placement: CurlLoopAssignment.Placement, group: String, assignment: Locked<CurlLoopAssignment>) {
        self.placement = placement
        self.group = group
        self.assignment = assignment
    }

    deinit { giveBack() }

    func giveBack() {
        guard !isGivenBack.exchange(true, ordering: .relaxed) else { return }
        assignment.withLock { $0.ended(placement, group: group) }
    }
}
