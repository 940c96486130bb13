import Synchronization

/// The event loops of one transport, each with its own thread, multi handle and connections
/// (``CurlTransport/Configuration-swift.struct/eventLoopCount``), and the rules that place
/// each request on one of them (``CurlLoopAssignment``).
///
/// A transfer stays on the loop it was placed on from submission to its end: its
/// cancellation, its streamed body's and upload's resumptions all go to that loop.
final class CurlEventLoopGroup: Sendable {
    /// The most loops one transport runs: each is a thread and a few descriptors, and past
    /// the cores of any machine more loops only add switches between them.
    static let maximumCount = 256

    let loops: [CurlEventLoop]
    let assignment: CurlLoopAssignment
    /// Numbers requests in the order they are placed, for ``CurlLoopAssignment``.
    private let tickets = Atomic<UInt64>(0)

    init(configuration: CurlTransport.Configuration) throws(CurlError) {
        let count = configuration.eventLoopCount
        guard (1...Self.maximumCount).contains(count) else {
            throw CurlError(
                kind: .option, curlCode: 0,
                message: "eventLoopCount is \(count); it must be from 1 to \(Self.maximumCount)"
            )
        }
        var loops: [CurlEventLoop] = []
        loops.reserveCapacity(count)
        do throws(CurlError) {
            for _ in 0..<count { loops.append(try CurlEventLoop(configuration: configuration)) }
        } catch {
            // The loops already running stop on their own once told; nothing waits for them.
            for loop in loops { loop.shutDown() }
            throw error
        }
        self.loops = loops
        assignment = CurlLoopAssignment(loopCount: count, maximumConnectionsPerHost: configuration.maximumConnectionsPerHost)
    }

    /// The loop a request to `group` runs on, and the connections to its host that loop may
    /// hold for it.
    func place(group: String, multiplexes: Bool) -> (loop: CurlEventLoop, connections: Int) {
        guard loops.count > 1 else { return (loops[0], assignment.maximumConnectionsPerHost) }
        let ticket = tickets.add(1, ordering: .relaxed).oldValue
        let placement = assignment.placement(group: group, multiplexes: multiplexes, ticket: ticket)
        return (loops[placement.loop], placement.connections)
    }

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
