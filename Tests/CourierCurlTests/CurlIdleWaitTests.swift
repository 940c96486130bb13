import Testing
@testable import CourierCurl

@Suite struct CurlIdleWaitTests {
    private let now = ContinuousClock.now

    @Test func watchesForOneWindowRightAfterResumingWithNothingRunning() {
        var wait = CurlIdleWait(window: .microseconds(40))
        #expect(wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) == .watchInbox(until: now + .microseconds(40)))
    }

    @Test func sleepsWhenNothingWasResumed() {
        // An idle transport, or a turn that only moved bytes: nobody is about to submit.
        var wait = CurlIdleWait()
        #expect(wait.afterTurn(resumed: 0, transfersLeft: 0, now: now) == .sleep)
    }

    @Test func sleepsWhileTransfersRun() {
        // Their sockets need polling; libcurl's poll is woken by a submission anyway.
        var wait = CurlIdleWait()
        #expect(wait.afterTurn(resumed: 3, transfersLeft: 1, now: now) == .sleep)
    }

    @Test func aZeroWindowNeverWatches() {
        var wait = CurlIdleWait(window: .zero)
        #expect(wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) == .sleep)
    }

    @Test func eachMissInARowDoublesTheResumptionsSkipped() {
        var wait = CurlIdleWait(window: .microseconds(10), maximumSkips: 100)
        var skippedBeforeEachWatch: [Int] = []
        var skipped = 0
        for _ in 0..<40 where skippedBeforeEachWatch.count < 5 {
            switch wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) {
            case .sleep:
                skipped += 1
            case .watchInbox:
                skippedBeforeEachWatch.append(skipped)
                skipped = 0
                wait.watchEnded(foundCommand: false)
            }
        }
        #expect(skippedBeforeEachWatch == [0, 1, 2, 4, 8])
    }

    @Test func skipsAreCappedHoweverLongTheMissesGoOn() {
        var wait = CurlIdleWait(window: .microseconds(10), maximumSkips: 3)
        // Past the point where 1 << misses would overflow an Int.
        while wait.misses < Int.bitWidth + 10 {
            if case .watchInbox = wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) {
                wait.watchEnded(foundCommand: false)
            }
        }
        #expect(wait.skipsLeft == 3)
        var sleeps = 0
        while wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) == .sleep { sleeps += 1 }
        #expect(sleeps == 3)
    }

    @Test func aHitStartsOver() {
        var wait = CurlIdleWait(window: .microseconds(10))
        for _ in 0..<3 {
            while wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) == .sleep {}
            wait.watchEnded(foundCommand: false)
        }
        while wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) == .sleep {}
        wait.watchEnded(foundCommand: true)
        #expect(wait.misses == 0)
        // Every later resumption is watched again, with no skip in between.
        for _ in 0..<3 {
            #expect(wait.afterTurn(resumed: 1, transfersLeft: 0, now: now) != .sleep)
            wait.watchEnded(foundCommand: true)
        }
    }

    @Test func turnsWithoutResumptionsDoNotUseUpSkips() {
        var wait = CurlIdleWait(window: .microseconds(10))
        _ = wait.afterTurn(resumed: 1, transfersLeft: 0, now: now)
        wait.watchEnded(foundCommand: false)
        #expect(wait.skipsLeft == 1)
        #expect(wait.afterTurn(resumed: 0, transfersLeft: 0, now: now) == .sleep)
        #expect(wait.afterTurn(resumed: 2, transfersLeft: 4, now: now) == .sleep)
        #expect(wait.skipsLeft == 1)
    }
}
