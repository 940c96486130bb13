import Foundation
import Testing
@testable import Courier

/// `UploadBodyState` driven event by event with stand-in continuations for the producer,
/// checking what the engine's reads find and when the producer is let go on.
@Suite struct UploadBodyStateTests {
    /// A stand-in for the producer's continuation that counts how often it is resumed.
    private final class Producer {
        var resumes = 0
    }

    private typealias State = UploadBodyState<Producer>

    /// Performs `action` as the reader does: resumes the producer it names; returns whether the
    /// engine is to be told it can read.
    @discardableResult
    private func perform(_ action: State.Action) -> Bool {
        action.resumeProducer?.resumes += 1
        return action.notifyReader
    }

    /// One read of at most `count` bytes by the engine: what it found and the bytes as text.
    private func read(_ state: inout State, upTo count: Int) -> (State.Read, String) {
        var buffer = [UInt8](repeating: 0, count: count)
        let (read, action) = buffer.withUnsafeMutableBytes { state.read(into: $0) }
        perform(action)
        guard case .bytes(let copied) = read else { return (read, "") }
        return (read, String(decoding: buffer[..<copied], as: UTF8.self))
    }

    private func chunk(_ text: String) -> Data { Data(text.utf8) }

    /// A producer that added `text` and then asked for room.
    private func producer(after text: String, in state: inout State) -> Producer {
        let producer = Producer()
        perform(state.append(chunk(text)))
        perform(state.waitForSpace(producer))
        return producer
    }

    @Test func readsCrossChunksAndSplitThemWhereTheBufferEnds() {
        var state = State(capacity: 100)
        perform(state.append(chunk("abc")))
        perform(state.append(chunk("defg")))
        #expect(read(&state, upTo: 2) == (.bytes(2), "ab"))
        #expect(read(&state, upTo: 3) == (.bytes(3), "cde"))
        #expect(read(&state, upTo: 10) == (.bytes(2), "fg"))
        #expect(state.bytesRead == 7)
        #expect(state.bufferedBytes == 0)
    }

    @Test func anEngineThatFoundNothingIsToldOnceWhenBytesArrive() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8).0 == .wait)
        #expect(perform(state.append(chunk("a"))))
        #expect(!perform(state.append(chunk("b"))))
        #expect(read(&state, upTo: 8) == (.bytes(2), "ab"))
    }

    @Test func finishingWakesAWaitingEngineToFindTheEnd() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8).0 == .wait)
        #expect(perform(state.finish(nil)))
        #expect(read(&state, upTo: 8).0 == .end)
        #expect(read(&state, upTo: 8).0 == .end)
    }

    @Test func bytesBufferedBeforeTheEndAreReadFirst() {
        var state = State(capacity: 100)
        perform(state.append(chunk("tail")))
        perform(state.finish(nil))
        #expect(read(&state, upTo: 8) == (.bytes(4), "tail"))
        #expect(read(&state, upTo: 8).0 == .end)
    }

    @Test func theProducerWaitsWhenFullAndIsResumedOnceWhenThereIsRoom() {
        var state = State(capacity: 4)
        let producer = producer(after: "abcdef", in: &state)
        #expect(state.isFull)
        #expect(producer.resumes == 0)
        #expect(read(&state, upTo: 1) == (.bytes(1), "a"))
        #expect(producer.resumes == 0) // 5 left: still full
        #expect(read(&state, upTo: 2) == (.bytes(2), "bc"))
        #expect(producer.resumes == 1)
        #expect(read(&state, upTo: 8) == (.bytes(3), "def"))
        perform(state.finish(nil))
        perform(state.cancel(with: CancellationError()))
        #expect(producer.resumes == 1)
    }

    @Test func aProducerWithRoomIsResumedAtOnce() {
        var state = State(capacity: 4)
        #expect(producer(after: "ab", in: &state).resumes == 1)
    }

    @Test func aFailedBodyDropsItsBytesAndEveryReadFails() {
        var state = State(capacity: 100)
        perform(state.append(chunk("lost")))
        #expect(!perform(state.finish(URLError(.cannotOpenFile))))
        #expect(state.bufferedBytes == 0)
        #expect(read(&state, upTo: 8).0 == .failed)
        #expect(read(&state, upTo: 8).0 == .failed)
        #expect((state.failure as? URLError)?.code == .cannotOpenFile)
        #expect(!perform(state.append(chunk("late"))))
        #expect(perform(state.finish(nil)) == false)
        #expect((state.failure as? URLError)?.code == .cannotOpenFile)
    }

    @Test func aFailureWakesAWaitingEngine() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8).0 == .wait)
        #expect(perform(state.finish(URLError(.cannotOpenFile))))
        #expect(read(&state, upTo: 8).0 == .failed)
    }

    // MARK: Cancel in every state

    @Test func cancellingAnOpenBodyFailsReadsAndIgnoresLaterBytes() {
        var state = State(capacity: 100)
        perform(state.append(chunk("abc")))
        perform(state.cancel(with: CancellationError()))
        #expect(state.isEnded)
        #expect(state.failure is CancellationError)
        #expect(read(&state, upTo: 8).0 == .failed)
        perform(state.append(chunk("late")))
        #expect(state.bufferedBytes == 0)
    }

    @Test func cancellingReleasesAWaitingProducerOnce() {
        var state = State(capacity: 2)
        let producer = producer(after: "abc", in: &state)
        perform(state.cancel(with: CancellationError()))
        #expect(producer.resumes == 1)
        perform(state.cancel(with: CancellationError()))
        perform(state.finish(nil))
        #expect(producer.resumes == 1)
        // A producer that tries to go on after the cancel does not wait.
        let late = Producer()
        perform(state.waitForSpace(late))
        #expect(late.resumes == 1)
    }

    @Test func cancellingAFinishedBodyKeepsItsEnd() {
        var state = State(capacity: 100)
        perform(state.append(chunk("abc")))
        perform(state.finish(nil))
        perform(state.cancel(with: CancellationError()))
        #expect(state.failure == nil)
        #expect(state.bufferedBytes == 0)
    }

    @Test func cancellingAFailedBodyKeepsItsError() {
        var state = State(capacity: 100)
        perform(state.finish(URLError(.cannotOpenFile)))
        perform(state.cancel(with: CancellationError()))
        #expect((state.failure as? URLError)?.code == .cannotOpenFile)
    }

    @Test func cancellingDoesNotWakeTheEngine() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8).0 == .wait)
        #expect(!perform(state.cancel(with: CancellationError())))
    }
}
