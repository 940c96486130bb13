import Foundation
import Testing
@testable import Courier

/// The hooks layers above an engine use on a ``ResponseBody``: end handlers and a termination
/// that does not keep the body alive.
@Suite struct ResponseBodyTests {
    /// Counts the calls of an end handler, and what the producer was told.
    private final class Probe: Sendable {
        let ends = Locked(0)
        let told = Locked<[ResponseBodyStorage.ProducerAction]>([])

        var handler: @Sendable () -> Void { { self.ends.withLock { $0 += 1 } } }
        var storage: ResponseBodyStorage { ResponseBodyStorage { action in self.told.withLock { $0.append(action) } } }
        var endCount: Int { ends.withLock { $0 } }
    }

    @Test func endHandlersRunOnceWhenTheEngineFinishes() async throws {
        let probe = Probe()
        let storage = probe.storage
        let body = ResponseBody(storage)
        body.whenEnded(probe.handler)
        body.whenEnded(probe.handler)
        storage.write(Data("a".utf8))
        #expect(probe.endCount == 0)
        storage.finish()
        #expect(probe.endCount == 2)
        storage.fail(URLError(.networkConnectionLost))
        body.terminate(with: URLError(.timedOut))
        #expect(probe.endCount == 2)
        #expect(try await body.collect(upTo: 10) == Data("a".utf8))
    }

    @Test func anEndHandlerRunsAtOnceOnABodyThatHasEnded() {
        let probe = Probe()
        ResponseBody(Data("done".utf8)).whenEnded(probe.handler)
        #expect(probe.endCount == 1)
    }

    @Test func droppingTheBodyEndsItAndCancelsTheTransfer() {
        let probe = Probe()
        let storage = probe.storage
        do {
            let body = ResponseBody(storage)
            body.whenEnded(probe.handler)
        }
        #expect(probe.endCount == 1)
        #expect(probe.told.withLock { $0 } == [.cancel])
    }

    @Test func weakTerminateEndsALiveBodyAndDoesNotKeepADroppedOne() async throws {
        let probe = Probe()
        let live = ResponseBody(probe.storage)
        live.weakTerminate(URLError(.timedOut))
        #expect(probe.told.withLock { $0 } == [.cancel])
        await #expect(throws: URLError.self) { _ = try await live.collect(upTo: 10) }

        let dropped = Probe()
        let terminate = ResponseBody(dropped.storage).weakTerminate
        // The body was dropped as soon as it was made: cancelled then, and holding `terminate`
        // did not keep it.
        #expect(dropped.told.withLock { $0 } == [.cancel])
        terminate(URLError(.timedOut))
        #expect(dropped.told.withLock { $0 } == [.cancel])
    }
}
