import Testing
@testable import CourierCurl

@Suite struct CurlTimerTests {
    private let now = ContinuousClock.now

    @Test func noTimerWaitsForTheCapAndIsNeverDue() {
        let timer = CurlTimer()
        #expect(timer.waitMilliseconds(at: now, cap: 250) == 250)
        #expect(!timer.isDue(at: now + .seconds(3_600)))
    }

    @Test func zeroIsDueAtOnce() {
        var timer = CurlTimer()
        timer.set(milliseconds: 0, now: now)
        #expect(timer.isDue(at: now))
        #expect(timer.waitMilliseconds(at: now, cap: 250) == 0)
    }

    @Test func aLaterTimerShortensTheWaitAndFallsDueOnTime() {
        var timer = CurlTimer()
        timer.set(milliseconds: 40, now: now)
        #expect(timer.waitMilliseconds(at: now, cap: 250) == 40)
        #expect(!timer.isDue(at: now + .milliseconds(39)))
        #expect(timer.isDue(at: now + .milliseconds(40)))
        // Never more than the cap, however far away.
        timer.set(milliseconds: 60_000, now: now)
        #expect(timer.waitMilliseconds(at: now, cap: 250) == 250)
    }

    @Test func aPartialMillisecondRoundsUpSoTheWaitDoesNotEndEarly() {
        var timer = CurlTimer()
        timer.set(milliseconds: 10, now: now)
        #expect(timer.waitMilliseconds(at: now + .microseconds(9_500), cap: 250) == 1)
        #expect(timer.waitMilliseconds(at: now + .milliseconds(11), cap: 250) == 0)
    }

    @Test func minusOneAndClearingCancelIt() {
        var timer = CurlTimer()
        timer.set(milliseconds: 5, now: now)
        timer.set(milliseconds: -1, now: now)
        #expect(timer.deadline == nil)
        timer.set(milliseconds: 5, now: now)
        timer.clear()
        #expect(!timer.isDue(at: now + .seconds(1)))
    }
}
