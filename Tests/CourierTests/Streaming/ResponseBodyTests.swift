import Foundation
import Testing
@testable import Courier

/// The hooks layers above an engine use on a ``ResponseBody``: end handlers and a termination
/// that does not keep the body alive.
@Suite struct ResponseBodyTests {
    /// Keeps what an end handler was told, and what the producer was told.
    private final class Probe: Sendable {
        let ends = Locked<[ResponseBodyEnding]>([])
        let told = Locked<[ResponseBodyStorage.ProducerAction]>([])

        var handler: @Sendable (ResponseBodyEnding) -> Void { { ending in self.ends.withLock { $0.append(ending) } } }
        var storage: ResponseBodyStorage { ResponseBodyStorage { action in self.told.withLock { $0.append(action) } } }
        var endCount: Int { ends.withLock { $0.count } }
        var ending: ResponseBodyEnding? { ends.withLock { $0.first } }
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
        #expect(probe.ending?.bytes == 1)
        #expect(probe.ending?.error == nil)
        #expect(try await body.collect(upTo: 10) == Data("a".utf8))
    }

    /// The end is told as a read of the body sees it: the error through the layers' transform,
    /// the metrics with the hops before this one.
    @Test func anEndingCarriesTheBytesTheErrorAsReadAndTheMetrics() async throws {
        let probe = Probe()
        let storage = probe.storage
        let body = ResponseBody(storage)
            .mappingErrors { _ in URLError(.timedOut) }
            .redirected(after: [ExchangeMetrics()])
        body.whenEnded(probe.handler)
        storage.write(Data("abc".utf8))
        var measured = ExchangeMetrics()
        measured.total = .milliseconds(5)
        storage.fail(URLError(.networkConnectionLost), metrics: measured)
        let ending = try #require(probe.ending)
        #expect(ending.bytes == 3)
        #expect((ending.error as? URLError)?.code == .timedOut)
        #expect(ending.metrics?.total == .milliseconds(5))
        #expect(ending.metrics?.redirects.count == 1)
        await #expect(throws: URLError.self) { _ = try await body.collect(upTo: 10) }
    }

    /// A chunk the unread limit refuses never reached the body, and is not counted.
    @Test func aChunkPastTheUnreadLimitIsNotCounted() throws {
        let probe = Probe()
        let storage = probe.storage
        let body = ResponseBody(storage)
        body.whenEnded(probe.handler)
        storage.write(Data(count: 4), unreadLimit: 6, error: URLError(.dataLengthExceedsMaximum))
        storage.write(Data(count: 4), unreadLimit: 6, error: URLError(.dataLengthExceedsMaximum))
        let ending = try #require(probe.ending)
        #expect(ending.bytes == 4)
        #expect((ending.error as? URLError)?.code == .dataLengthExceedsMaximum)
        #expect(ending.metrics == nil)
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
        #expect((probe.ending?.error as? URLError)?.code == .cancelled)
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
