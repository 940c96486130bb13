import Testing
@testable import CourierCurl

/// Which loop of a group takes a request, without libcurl or a socket: requests are placed
/// and ended as the engine does when they are sent and when they end.
@Suite struct CurlLoopAssignmentTests {
    private let hostA = "http://127.0.0.1:8080 "
    private let hostB = "http://localhost:9090 "

    /// Places `count` requests that stay in flight; returns how many each loop took.
    private func placeInFlight(_ count: Int, group: String, in assignment: inout CurlLoopAssignment) -> [Int: Int] {
        (0..<count).reduce(into: [:]) { counts, _ in
            counts[assignment.place(group: group, multiplexes: false).loop, default: 0] += 1
        }
    }

    /// The loops of `group` with their shares.
    private func shares(_ assignment: CurlLoopAssignment, group: String) -> [Int: Int] {
        Dictionary(uniqueKeysWithValues: assignment.placements(group: group, multiplexes: false).map { ($0.loop, $0.connections) })
    }

    @Test func oneLoopTakesEveryRequestWithTheWholeLimit() {
        var assignment = CurlLoopAssignment(loopCount: 1, maximumConnectionsPerHost: 6)
        for _ in 0..<20 {
            #expect(assignment.place(group: hostA, multiplexes: false) == .init(loop: 0, connections: 6))
            #expect(assignment.place(group: hostA, multiplexes: true) == .init(loop: 0, connections: 6))
        }
        #expect(assignment.placements(group: hostA, multiplexes: false) == [.init(loop: 0, connections: 6)])
        #expect(assignment.countedHosts == 0)
    }

    /// The shares add up to the limit whatever the counts, none is 0, and the loops are
    /// distinct: so the loops together never hold more connections to a host than it allows.
    @Test func theSharesOfAHostAddUpToItsLimitAndNoneIsZero() {
        for loops in 1...9 {
            for limit in 1...13 {
                let assignment = CurlLoopAssignment(loopCount: loops, maximumConnectionsPerHost: limit)
                for group in [hostA, hostB, ""] {
                    let placements = assignment.placements(group: group, multiplexes: false)
                    #expect(placements.map(\.connections).reduce(0, +) == limit, "\(loops) loops, limit \(limit)")
                    #expect(placements.allSatisfy { $0.connections >= 1 })
                    #expect(placements.count == min(loops, limit))
                    #expect(Set(placements.map(\.loop)).count == placements.count)
                    #expect(placements.allSatisfy { (0..<loops).contains($0.loop) })
                }
            }
        }
    }

    /// Requests one after another go to the same loop, which keeps their connection warm.
    @Test func requestsOneAfterAnotherStayOnOneLoop() {
        var assignment = CurlLoopAssignment(loopCount: 3, maximumConnectionsPerHost: 2)
        let first = assignment.place(group: hostA, multiplexes: false)
        assignment.ended(first, group: hostA)
        for _ in 0..<20 {
            let next = assignment.place(group: hostA, multiplexes: false)
            #expect(next == first)
            assignment.ended(next, group: hostA)
        }
        #expect(assignment.countedHosts == 0)
    }

    /// A burst fills the host's first loop up to its share, then the next; beyond every share,
    /// each loop takes requests in proportion to its share, so no loop's queue runs ahead.
    @Test func aBurstFillsEachLoopsShareThenQueuesInProportion() {
        for (loops, limit) in [(2, 5), (3, 4), (4, 6), (3, 3), (8, 3), (2, 6)] {
            var assignment = CurlLoopAssignment(loopCount: loops, maximumConnectionsPerHost: limit)
            let shares = shares(assignment, group: hostA)
            let order = assignment.placements(group: hostA, multiplexes: false)
            // The first `limit` requests run at once: each loop gets exactly its share, in order.
            var firstRound: [Int] = []
            for _ in 0..<limit {
                let placement = assignment.place(group: hostA, multiplexes: false)
                #expect(shares[placement.loop] == placement.connections)
                firstRound.append(placement.loop)
            }
            #expect(firstRound == order.flatMap { Array(repeating: $0.loop, count: $0.connections) }, "\(loops) loops, limit \(limit)")
            let more = placeInFlight(limit * 9, group: hostA, in: &assignment)
            #expect(more == shares.mapValues { $0 * 9 }, "\(loops) loops, limit \(limit)")
        }
    }

    /// A request that ends frees its loop's place: the next goes there.
    @Test func anEndedRequestMakesRoomOnItsLoop() {
        var assignment = CurlLoopAssignment(loopCount: 2, maximumConnectionsPerHost: 4)
        let placed = (0..<4).map { _ in assignment.place(group: hostA, multiplexes: false) }
        #expect(Set(placed.map(\.loop)).count == 2)
        assignment.ended(placed[3], group: hostA)
        #expect(assignment.place(group: hostA, multiplexes: false) == placed[3])
        // Ending a request of a host with none in flight changes nothing.
        assignment.ended(placed[0], group: hostB)
        #expect(assignment.countedHosts == 1)
    }

    /// Only hosts with requests in flight are remembered, however many hosts were asked.
    @Test func hostsAreForgottenOnceTheirRequestsEnd() {
        var assignment = CurlLoopAssignment(loopCount: 4, maximumConnectionsPerHost: 6)
        for index in 0..<1_000 {
            let group = "http://host\(index).example:80 "
            let placements = (0..<3).map { _ in assignment.place(group: group, multiplexes: false) }
            for placement in placements { assignment.ended(placement, group: group) }
        }
        #expect(assignment.countedHosts == 0)
    }

    @Test func aHostWithOneConnectionUsesOneLoop() {
        var assignment = CurlLoopAssignment(loopCount: 4, maximumConnectionsPerHost: 1)
        let placements = assignment.placements(group: hostA, multiplexes: false)
        #expect(placements.count == 1)
        #expect(placements.first?.connections == 1)
        #expect(placeInFlight(50, group: hostA, in: &assignment).count == 1)
    }

    /// HTTP/2 multiplexes only within one multi handle: an origin's requests all go to one
    /// loop, which may open every connection the limit allows.
    @Test func requestsThatMultiplexGoToOneLoopPerOriginWithTheWholeLimit() {
        var assignment = CurlLoopAssignment(loopCount: 3, maximumConnectionsPerHost: 6)
        let loop = CurlLoopAssignment.firstLoop(of: hostA, among: 3)
        for _ in 0..<100 {
            #expect(assignment.place(group: hostA, multiplexes: true) == .init(loop: loop, connections: 6))
        }
        #expect(assignment.placements(group: hostA, multiplexes: true) == [.init(loop: loop, connections: 6)])
        #expect(assignment.countedHosts == 0)
    }

    /// Hosts start on loops chosen by a fixed hash, so hosts limited to one connection each
    /// do not all land on the first loop, and a host's loop is the same in every run.
    @Test func hostsStartOnLoopsChosenByAFixedHash() {
        let hosts = (0..<64).map { "https://host\($0).example:443 " }
        let firstLoops = Set(hosts.map { CurlLoopAssignment.firstLoop(of: $0, among: 4) })
        #expect(firstLoops == [0, 1, 2, 3])
        // FNV-1a of the empty text is its offset basis, 0xcbf29ce484222325.
        #expect(CurlLoopAssignment.firstLoop(of: "", among: 7) == Int(UInt64(0xcbf2_9ce4_8422_2325) % 7))
        #expect(CurlLoopAssignment.firstLoop(of: hostA, among: 1) == 0)
    }

    @Test func countsBelowOneAreOne() {
        var assignment = CurlLoopAssignment(loopCount: 0, maximumConnectionsPerHost: -3)
        #expect(assignment.place(group: hostA, multiplexes: false) == .init(loop: 0, connections: 1))
    }
}
