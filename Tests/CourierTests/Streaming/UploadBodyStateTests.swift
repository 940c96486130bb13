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

    /// An action's case, naming the producer by how often it was resumed, so tests compare cases.
    private enum Told: Equatable {
        case none
        case notifyReader
        case resumeProducer
        case wait
        case notifyReaderAndResumeProducer
    }

    /// Performs `action` as the reader does (resumes the producer it names) and says its case.
    @discardableResult
    private func perform(_ action: State.AppendAction) -> Told {
        switch action {
        case .none: .none
        case .notifyReader: .notifyReader
        }
    }

    @discardableResult
    private func perform(_ action: State.SpaceAction) -> Told {
        switch action {
        case .resumeProducer(let producer):
            producer.resumes += 1
            return .resumeProducer
        case .wait:
            return .wait
        }
    }

    @discardableResult
    private func perform(_ action: State.FinishAction) -> Told {
        switch action {
        case .none: return .none
        case .notifyReader: return .notifyReader
        case .resumeProducer(let producer):
            producer.resumes += 1
            return .resumeProducer
        case .notifyReaderAndResumeProducer(let producer):
            producer.resumes += 1
            return .notifyReaderAndResumeProducer
        }
    }

    @discardableResult
    private func perform(_ action: State.CancelAction) -> Told {
        switch action {
        case .none: return .none
        case .resumeProducer(let producer):
            producer.resumes += 1
            return .resumeProducer
        }
    }

    /// What one read found, as text: its bytes, or its case.
    private enum Found: Equatable {
        case copied(String)
        /// Copied, and the producer waiting for room was resumed.
        case copiedAndResumedProducer(String)
        case wait, end, failed
    }

    /// One read of at most `count` bytes by the engine.
    private func read(_ state: inout State, upTo count: Int) -> Found {
        var buffer = [UInt8](repeating: 0, count: count)
        let action = buffer.withUnsafeMutableBytes { state.read(into: $0) }
        switch action {
        case .copied(let copied):
            return .copied(String(decoding: buffer[..<copied], as: UTF8.self))
        case .copiedAndResumeProducer(let copied, let producer):
            producer.resumes += 1
            return .copiedAndResumedProducer(String(decoding: buffer[..<copied], as: UTF8.self))
        case .wait: return .wait
        case .end: return .end
        case .failed: return .failed
        }
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
        #expect(read(&state, upTo: 2) == .copied("ab"))
        #expect(read(&state, upTo: 3) == .copied("cde"))
        #expect(read(&state, upTo: 10) == .copied("fg"))
        #expect(state.bytesRead == 7)
        #expect(state.bufferedBytes == 0)
    }

    @Test func anEngineThatFoundNothingIsToldOnceWhenBytesArrive() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8) == .wait)
        #expect(perform(state.append(chunk("a"))) == .notifyReader)
        #expect(perform(state.append(chunk("b"))) == .none)
        #expect(read(&state, upTo: 8) == .copied("ab"))
    }

    @Test func finishingWakesAWaitingEngineToFindTheEnd() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8) == .wait)
        #expect(perform(state.finish(nil)) == .notifyReader)
        #expect(read(&state, upTo: 8) == .end)
        #expect(read(&state, upTo: 8) == .end)
    }

    @Test func bytesBufferedBeforeTheEndAreReadFirst() {
        var state = State(capacity: 100)
        perform(state.append(chunk("tail")))
        #expect(perform(state.finish(nil)) == .none)
        #expect(read(&state, upTo: 8) == .copied("tail"))
        #expect(read(&state, upTo: 8) == .end)
    }

    @Test func theProducerWaitsWhenFullAndIsResumedOnceWhenThereIsRoom() {
        var state = State(capacity: 4)
        let producer = producer(after: "abcdef", in: &state)
        #expect(state.isFull)
        #expect(producer.resumes == 0)
        #expect(read(&state, upTo: 1) == .copied("a"))
        #expect(producer.resumes == 0) // 5 left: still full
        #expect(read(&state, upTo: 2) == .copiedAndResumedProducer("bc"))
        #expect(producer.resumes == 1)
        #expect(read(&state, upTo: 8) == .copied("def"))
        #expect(perform(state.finish(nil)) == .none)
        #expect(perform(state.cancel(with: CancellationError())) == .none)
        #expect(producer.resumes == 1)
    }

    /// A read of no bytes finds nothing and pauses the engine even with the buffer full, so an
    /// end can find both waiting.
    @Test func finishingWithBothWaitingTellsBoth() {
        var state = State(capacity: 2)
        let producer = producer(after: "abc", in: &state)
        #expect(read(&state, upTo: 0) == .wait)
        #expect(perform(state.finish(URLError(.cannotOpenFile))) == .notifyReaderAndResumeProducer)
        #expect(producer.resumes == 1)
    }

    @Test func aProducerWithRoomIsResumedAtOnce() {
        var state = State(capacity: 4)
        #expect(producer(after: "ab", in: &state).resumes == 1)
    }

    @Test func aFailedBodyDropsItsBytesAndEveryReadFails() {
        var state = State(capacity: 100)
        perform(state.append(chunk("lost")))
        #expect(perform(state.finish(URLError(.cannotOpenFile))) == .none)
        #expect(state.bufferedBytes == 0)
        #expect(read(&state, upTo: 8) == .failed)
        #expect(read(&state, upTo: 8) == .failed)
        #expect((state.failure as? URLError)?.code == .cannotOpenFile)
        #expect(perform(state.append(chunk("late"))) == .none)
        #expect(perform(state.finish(nil)) == .none)
        #expect((state.failure as? URLError)?.code == .cannotOpenFile)
    }

    @Test func aFailureWakesAWaitingEngine() {
        var state = State(capacity: 100)
        #expect(read(&state, upTo: 8) == .wait)
        #expect(perform(state.finish(URLError(.cannotOpenFile))) == .notifyReader)
        #expect(read(&state, upTo: 8) == .failed)
    }

    // MARK: Cancel in every state

    @Test func cancellingAnOpenBodyFailsReadsAndIgnoresLaterBytes() {
        var state = State(capacity: 100)
        perform(state.append(chunk("abc")))
        perform(state.cancel(with: CancellationError()))
        #expect(state.isEnded)
        #expect(state.failure is CancellationError)
        #expect(read(&state, upTo: 8) == .failed)
        perform(state.append(chunk("late")))
        #expect(state.bufferedBytes == 0)
    }

    @Test func cancellingReleasesAWaitingProducerOnce() {
        var state = State(capacity: 2)
        let producer = producer(after: "abc", in: &state)
        #expect(perform(state.cancel(with: CancellationError())) == .resumeProducer)
        #expect(producer.resumes == 1)
        #expect(perform(state.cancel(with: CancellationError())) == .none)
        #expect(perform(state.finish(nil)) == .none)
        #expect(producer.resumes == 1)
        // A producer that tries to go on after the cancel does not wait.
        let late = Producer()
        #expect(perform(state.waitForSpace(late)) == .resumeProducer)
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
        #expect(read(&state, upTo: 8) == .wait)
        #expect(perform(state.cancel(with: CancellationError())) == .none)
    }
}
