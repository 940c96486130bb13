import Testing
@testable import CourierCurl

/// Which loop of a group takes a request, without libcurl or a socket.
@Suite struct CurlLoopAssignmentTests {
    private let hostA = "http://127.0.0.1:8080 "
    private let hostB = "http://localhost:9090 "

    /// The loops `count` consecutive requests from `ticket` 0 go to, and how many each.
    private func loopsUsed(_ assignment: CurlLoopAssignment, group: String, multiplexes: Bool = false, count: Int) -> [Int: Int] {
        (0..<UInt64(count)).reduce(into: [:]) { counts, ticket in
            counts[assignment.placement(group: group, multiplexes: multiplexes, ticket: ticket).loop, default: 0] += 1
        }
    }

    @Test func oneLoopTakesEveryRequestWithTheWholeLimit() {
        let assignment = CurlLoopAssignment(loopCount: 1, maximumConnectionsPerHost: 6)
        for ticket: UInt64 in [0, 1, 7, .max] {
            #expect(assignment.placement(group: hostA, multiplexes: false, ticket: ticket) == .init(loop: 0, connections: 6))
            #expect(assignment.placement(group: hostA, multiplexes: true, ticket: ticket) == .init(loop: 0, connections: 6))
        }
        #expect(assignment.placements(group: hostA, multiplexes: false) == [.init(loop: 0, connections: 6)])
    }

    @Test func http1RequestsToOneHostAreSpreadOverTheLoops() {
        let assignment = CurlLoopAssignment(loopCount: 3, maximumConnectionsPerHost: 6)
        #expect(loopsUsed(assignment, group: hostA, count: 600) == [0: 200, 1: 200, 2: 200])
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

    /// Every request is placed on one of its host's loops with that loop's share, and each
    /// loop gets requests in proportion to its share: a loop is never asked to run more than
    /// its connections allow while another has room.
    @Test func requestsGoToTheHostsLoopsInProportionToTheirShares() {
        for (loops, limit) in [(2, 5), (3, 4), (4, 6), (3, 3), (8, 3), (2, 1)] {
            let assignment = CurlLoopAssignment(loopCount: loops, maximumConnectionsPerHost: limit)
            let shares = Dictionary(uniqueKeysWithValues: assignment.placements(group: hostA, multiplexes: false).map { ($0.loop, $0.connections) })
            for ticket in 0..<UInt64(limit * 10) {
                let placement = assignment.placement(group: hostA, multiplexes: false, ticket: ticket)
                #expect(shares[placement.loop] == placement.connections, "\(loops) loops, limit \(limit)")
            }
            let counts = loopsUsed(assignment, group: hostA, count: limit * 10)
            #expect(counts == shares.mapValues { $0 * 10 }, "\(loops) loops, limit \(limit)")
        }
    }

    @Test func aHostWithOneConnectionUsesOneLoop() {
        let assignment = CurlLoopAssignment(loopCount: 4, maximumConnectionsPerHost: 1)
        let placements = assignment.placements(group: hostA, multiplexes: false)
        #expect(placements.count == 1)
        #expect(placements.first?.connections == 1)
        #expect(loopsUsed(assignment, group: hostA, count: 50).count == 1)
    }

    /// HTTP/2 multiplexes only within one multi handle: an origin's requests all go to one
    /// loop, which may open every connection the limit allows.
    @Test func requestsThatMultiplexGoToOneLoopPerOriginWithTheWholeLimit() {
        let assignment = CurlLoopAssignment(loopCount: 3, maximumConnectionsPerHost: 6)
        let loop = CurlLoopAssignment.firstLoop(of: hostA, among: 3)
        for ticket in 0..<UInt64(100) {
            #expect(assignment.placement(group: hostA, multiplexes: true, ticket: ticket) == .init(loop: loop, connections: 6))
        }
        #expect(assignment.placements(group: hostA, multiplexes: true) == [.init(loop: loop, connections: 6)])
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
        let assignment = CurlLoopAssignment(loopCount: 0, maximumConnectionsPerHost: -3)
        #expect(assignment.placement(group: hostA, multiplexes: false, ticket: 5) == .init(loop: 0, connections: 1))
    }
}
