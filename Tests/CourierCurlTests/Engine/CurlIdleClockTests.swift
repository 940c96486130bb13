import Testing
@testable import CourierCurl

/// The idle clock as a value: progress only records bytes, and the check that reads the
/// clock notices them. Instants are made up, so nothing here waits.
@Suite struct CurlIdleClockTests {
    private let start = ContinuousClock.now

    private func clock() -> CurlIdleClock {
        var clock = CurlIdleClock(timeout: .seconds(1), maximumConnectionsPerHost: 6)
        clock.handleConfigured(at: start)
        return clock
    }

    @Test func bytesReportedBeforeACheckRestartTheClockAtThatCheck() {
        var clock = clock()
        clock.progress(moved: 10)
        // Past the timeout since creation, but bytes moved since the last check.
        #expect(clock.overdueError(at: start + .seconds(5), isPaused: { false }) == nil)
        #expect(clock.overdueError(at: start + .milliseconds(5_900), isPaused: { false }) == nil)
        #expect(clock.overdueError(at: start + .milliseconds(6_100), isPaused: { false }) != nil)
    }

    @Test func reportsThatMoveNoByteAreSilence() {
        var clock = clock()
        clock.progress(moved: 10)
        #expect(clock.overdueError(at: start + .seconds(5), isPaused: { false }) == nil)
        clock.progress(moved: 10)
        clock.progress(moved: 10)
        let error = clock.overdueError(at: start + .seconds(7), isPaused: { false })
        #expect(error?.kind == .transfer)
        #expect(error?.message.hasPrefix("no data received or sent for ") == true)
        #expect(error?.message.contains("waiting for a connection") == false)
    }

    @Test func silenceBeforeAnyProgressNamesTheConnectionLimit() {
        var clock = CurlIdleClock(timeout: .seconds(1), maximumConnectionsPerHost: 6)
        let error = clock.overdueError(at: .now + .seconds(2), isPaused: { false })
        #expect(error?.message.contains("waiting for a connection (at most 6 per host)") == true)
    }

    @Test func silenceWhilePausedRestartsTheClock() {
        var clock = clock()
        #expect(clock.overdueError(at: start + .seconds(2), isPaused: { true }) == nil)
        #expect(clock.overdueError(at: start + .milliseconds(2_900), isPaused: { false }) == nil)
        #expect(clock.overdueError(at: start + .milliseconds(3_100), isPaused: { false }) != nil)
    }
}
