import Testing
@testable import CourierCurl

/// Per-host admission as the event loop drives it, without libcurl or a socket: transfers are
/// names, starting one is reporting it started.
@Suite struct CurlAdmissionTests {
    private typealias Admission = CurlAdmission<String>

    /// Asks for each transfer in turn and starts those told to start, as the loop does.
    private func request(_ names: [String], group: String = "a", limit: Int, in admission: inout Admission) -> [String] {
        var started: [String] = []
        for name in names where admission.request(name, group: group, limit: limit) == .start {
            admission.started(in: group)
            started.append(name)
        }
        return started
    }

    /// Takes every transfer the admission hands out, starting those `isLive` keeps.
    private func startWaiting(in admission: inout Admission, group: (String) -> String = { _ in "a" }, isLive: (String) -> Bool = { _ in true }) -> [String] {
        var started: [String] = []
        while let next = admission.nextToStart() {
            guard isLive(next) else { continue }
            admission.started(in: group(next))
            started.append(next)
        }
        return started
    }

    @Test func aGroupRunsUpToItsLimitAndTheRestWaitInOrder() {
        var admission = Admission()
        #expect(request(["1", "2", "3", "4"], limit: 2, in: &admission) == ["1", "2"])
        #expect(admission.waitingCount == 2)
        #expect(Array(admission.waitingTransfers) == ["3", "4"])
        // Nothing ended: nothing has room.
        #expect(admission.nextToStart() == nil)
        admission.ended(in: "a")
        #expect(startWaiting(in: &admission) == ["3"])
        admission.ended(in: "a")
        admission.ended(in: "a")
        #expect(startWaiting(in: &admission) == ["4"])
        #expect(admission.waitingCount == 0)
        #expect(!admission.hasWaiting)
    }

    @Test func aNewcomerWaitsBehindThoseAlreadyWaiting() {
        var admission = Admission()
        _ = request(["1", "2"], limit: 1, in: &admission)
        admission.ended(in: "a")
        // Room, but "2" came first: the newcomer queues until "2" has started.
        #expect(admission.request("3", group: "a", limit: 1) == .queued)
        #expect(startWaiting(in: &admission) == ["2"])
        #expect(Array(admission.waitingTransfers) == ["3"])
    }

    @Test func groupsAreCountedApart() {
        var admission = Admission()
        #expect(request(["a1", "a2"], group: "a", limit: 1, in: &admission) == ["a1"])
        #expect(request(["b1", "b2"], group: "b", limit: 1, in: &admission) == ["b1"])
        admission.ended(in: "b")
        #expect(startWaiting(in: &admission, group: { String($0.prefix(1)) }) == ["b2"])
        #expect(Array(admission.waitingTransfers) == ["a2"])
    }

    @Test func aTransferThatEndedWhileWaitingIsDroppedAndItsRoomGoesToTheNext() {
        var admission = Admission()
        _ = request(["1", "2", "3", "4"], limit: 2, in: &admission)
        admission.ended(in: "a")
        // "3" was cancelled while it waited.
        #expect(startWaiting(in: &admission, isLive: { $0 != "3" }) == ["4"])
        #expect(admission.waitingCount == 0)
    }

    @Test func aTransferThatFailsToStartTakesNoRoom() {
        var admission = Admission()
        // The loop reports nothing for a transfer whose handle could not be made ready.
        #expect(admission.request("1", group: "a", limit: 1) == .start)
        #expect(admission.request("2", group: "a", limit: 1) == .start)
        admission.started(in: "a")
        #expect(admission.request("3", group: "a", limit: 1) == .queued)
    }

    @Test func severalEndingInOneTurnAdmitAsManyAsEnded() {
        var admission = Admission()
        _ = request((1...10).map(String.init), limit: 4, in: &admission)
        for _ in 0..<3 { admission.ended(in: "a") }
        #expect(startWaiting(in: &admission) == ["5", "6", "7"])
        #expect(admission.waitingCount == 3)
    }

    @Test func shuttingDownForgetsEveryWaitingTransfer() {
        var admission = Admission()
        _ = request(["1", "2", "3"], limit: 1, in: &admission)
        admission.ended(in: "a")
        admission.removeAllWaiting()
        #expect(admission.waitingCount == 0)
        #expect(admission.nextToStart() == nil)
    }

    @Test func theLimitIsConnectionsOrConnectionsTimesStreams() {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 3
        configuration.httpVersion = .http1_1
        #expect(Admission.limit(configuration, scheme: "https") == 3)
        configuration.maximumConnectionsPerHost = 0
        #expect(Admission.limit(configuration, scheme: "https") == 1)
        configuration.maximumConnectionsPerHost = 3
        configuration.httpVersion = .automatic
        configuration.maximumConcurrentStreamsPerConnection = 10
        #expect(Admission.limit(configuration, scheme: "https") == 30)
        #expect(Admission.limit(configuration, scheme: "http") == 3)
        configuration.maximumConcurrentStreamsPerConnection = .max
        #expect(Admission.limit(configuration, scheme: "https") == .max)
    }

    /// A loop given a share of the per-host limit runs that many transfers of a host at once.
    @Test func theLimitOfALoopIsItsShareOfTheConnections() {
        var configuration = CurlTransport.Configuration()
        configuration.maximumConnectionsPerHost = 6
        configuration.maximumConcurrentStreamsPerConnection = 10
        #expect(Admission.limit(configuration, scheme: "http", connections: 2) == 2)
        #expect(Admission.limit(configuration, scheme: "https", connections: 2) == 20)
        #expect(Admission.limit(configuration, scheme: "http", connections: 0) == 1)
        #expect(Admission.limit(configuration, scheme: "http", connections: nil) == 6)
    }
}
