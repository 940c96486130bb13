import Testing
@testable import CourierCurl

@Suite("CurlScheduler: the curl thread's bookkeeping, without sockets")
struct CurlSchedulerTests {
    private func id(_ raw: UInt64) -> TransferID { TransferID(rawValue: raw) }

    @Test func firstTransferCreatesAHandleAndTheNextReusesIt() {
        var scheduler = CurlScheduler(maximumIdleHandles: 4)
        #expect(scheduler.submit(id(1), alreadyCancelled: false) == .start(id(1), .create))
        #expect(scheduler.finished(id(1)) == .finish(id(1), .recycle))
        #expect(scheduler.submit(id(2), alreadyCancelled: false) == .start(id(2), .reuseIdle))
        #expect(scheduler.liveHandles == 1)
        #expect(scheduler.idleHandles == 0)
    }

    @Test func handlesBeyondTheIdleLimitAreDestroyed() {
        var scheduler = CurlScheduler(maximumIdleHandles: 1)
        _ = scheduler.submit(id(1), alreadyCancelled: false)
        _ = scheduler.submit(id(2), alreadyCancelled: false)
        #expect(scheduler.liveHandles == 2)
        #expect(scheduler.finished(id(1)) == .finish(id(1), .recycle))
        #expect(scheduler.finished(id(2)) == .finish(id(2), .destroy))
        #expect(scheduler.liveHandles == 1)
        #expect(scheduler.idleHandles == 1)
    }

    @Test func cancellingARunningTransferRemovesItAndReturnsItsHandle() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        _ = scheduler.submit(id(1), alreadyCancelled: false)
        #expect(scheduler.cancel(id(1)) == .cancel(id(1), .recycle))
        #expect(scheduler.running.isEmpty)
        #expect(scheduler.idleHandles == 1)
    }

    @Test func aCancelThatOvertookItsSubmissionRejectsIt() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        #expect(scheduler.cancel(id(1)) == .none)
        #expect(scheduler.submit(id(1), alreadyCancelled: true) == .reject(id(1), .cancelled))
        #expect(scheduler.liveHandles == 0)
    }

    @Test func aCancelAfterCompletionDoesNothing() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        _ = scheduler.submit(id(1), alreadyCancelled: false)
        _ = scheduler.finished(id(1))
        #expect(scheduler.cancel(id(1)) == .none)
        #expect(scheduler.finished(id(1)) == .none)
    }

    @Test func anOverdueTransferIsRemovedOnceAndReturnsItsHandle() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        _ = scheduler.submit(id(1), alreadyCancelled: false)
        #expect(scheduler.expire(id(1)) == .expire(id(1), .recycle))
        #expect(scheduler.expire(id(1)) == .none)
        #expect(scheduler.finished(id(1)) == .none)
        #expect(scheduler.idleHandles == 1)
    }

    @Test func shutDownFailsEveryRunningTransferAndRefusesNewOnes() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        for raw in 1...3 { _ = scheduler.submit(id(UInt64(raw)), alreadyCancelled: false) }
        _ = scheduler.finished(id(2))
        #expect(scheduler.shutDown() == .shutDown(failing: [id(1), id(3)]))
        #expect(scheduler.shutDown() == .none)
        #expect(scheduler.submit(id(4), alreadyCancelled: false) == .reject(id(4), .shutDown))
        #expect(scheduler.liveHandles == 0)
        #expect(scheduler.idleHandles == 0)
    }

    @Test func startFailureGivesTheHandleBack() {
        var scheduler = CurlScheduler(maximumIdleHandles: 8)
        _ = scheduler.submit(id(1), alreadyCancelled: false)
        #expect(scheduler.startFailed(id(1)) == .recycle)
        #expect(scheduler.running.isEmpty)
    }

    @Test func fiveHundredCancelledTransfersReturnEveryHandle() {
        var scheduler = CurlScheduler(maximumIdleHandles: 500)
        for raw in 1...500 { _ = scheduler.submit(id(UInt64(raw)), alreadyCancelled: false) }
        for raw in 1...500 { _ = scheduler.cancel(id(UInt64(raw))) }
        #expect(scheduler.running.isEmpty)
        #expect(scheduler.idleHandles == scheduler.liveHandles)
        #expect(scheduler.liveHandles == 500)
    }
}
