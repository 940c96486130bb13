import Foundation
import Testing
@testable import Courier

/// `ResponseBodyState` driven event by event with stand-in continuations, checking what each
/// event tells the reader and the producer.
@Suite struct ResponseBodyStateTests {
    /// A stand-in for the reader's continuation that counts how often it is resumed.
    private final class Reader {
        private(set) var results: [Result<Data?, any Error>] = []

        var resumes: Int { results.count }

        /// The one chunk it was resumed with, as text; nil at the end.
        var text: String? {
            guard results.count == 1, case .success(let data) = results[0] else { return "not resumed once with a chunk" }
            return data.map { String(decoding: $0, as: UTF8.self) }
        }

        var error: URLError? {
            guard results.count == 1, case .failure(let error) = results[0] else { return nil }
            return error as? URLError
        }

        func take(_ result: Result<Data?, any Error>) { results.append(result) }
    }

    private typealias State = ResponseBodyState<Reader>

    /// Performs `action` as the storage does: resumes the reader it names, returns what the
    /// producer is told.
    @discardableResult
    private func perform(_ action: State.Action) -> State.ProducerAction? {
        if let (reader, result) = action.reader { reader.take(result) }
        return action.producer
    }

    /// Reads once with a fresh reader, returning it.
    private func read(_ state: inout State) -> (Reader, State.ProducerAction?) {
        let reader = Reader()
        let told = perform(state.next(reader))
        return (reader, told)
    }

    private func chunk(_ text: String) -> Data { Data(text.utf8) }

    private let cancelled = URLError(.cancelled)

    @Test func aWaitingReaderGetsTheNextChunkOnceAndLaterChunksAreBuffered() {
        var state = State(highWater: 100)
        let (waiting, told) = read(&state)
        #expect(waiting.resumes == 0)
        #expect(told == nil)
        #expect(perform(state.append(chunk("a"))) == nil)
        #expect(perform(state.append(chunk("b"))) == nil)
        #expect(waiting.text == "a")
        #expect(state.bufferedBytes == 1)
        #expect(read(&state).0.text == "b")
        #expect(state.bufferedBytes == 0)
    }

    @Test func theProducerPausesAtTheHighMarkOnceAndResumesBelowTheLowMark() {
        var state = State(highWater: 10)
        #expect(perform(state.append(chunk("aaaa"))) == nil)
        #expect(perform(state.append(chunk("bbbb"))) == nil)
        #expect(perform(state.append(chunk("cccc"))) == .pause)
        #expect(state.producerIsPaused)
        // An engine may deliver what it has in hand after being told to pause; no second pause.
        #expect(perform(state.append(chunk("dd"))) == nil)
        #expect(state.bufferedBytes == 14)
        var (reader, told) = read(&state)
        #expect(reader.text == "aaaa")
        #expect(told == nil)
        (reader, told) = read(&state)
        #expect(reader.text == "bbbb")
        #expect(told == nil) // 6 left: not yet below the low mark of 5
        (reader, told) = read(&state)
        #expect(reader.text == "cccc")
        #expect(told == .resume)
        #expect(!state.producerIsPaused)
        (reader, told) = read(&state)
        #expect(reader.text == "dd")
        #expect(told == nil)
    }

    @Test func chunksComeOutInOrderAcrossTheBuffersCompaction() {
        var state = State(highWater: 1 << 20)
        var texts: [String] = []
        for round in 0..<3 {
            for index in 0..<150 { perform(state.append(chunk("\(round)-\(index)"))) }
            // Read part of them so the head moves on while chunks keep arriving.
            for _ in 0..<100 { texts.append(read(&state).0.text ?? "end") }
        }
        while state.bufferedBytes > 0 { texts.append(read(&state).0.text ?? "end") }
        #expect(texts == (0..<3).flatMap { round in (0..<150).map { "\(round)-\($0)" } })
    }

    @Test func theEndIsDeliveredAfterTheBufferedChunksAndThenAgainAsNil() {
        var state = State(highWater: 100)
        perform(state.append(chunk("last")))
        #expect(perform(state.finish(nil)) == nil)
        #expect(state.isEnded)
        #expect(read(&state).0.text == "last")
        #expect(read(&state).0.text == nil)
        #expect(read(&state).0.text == nil)
    }

    @Test func anErrorIsDeliveredOnceThenNil() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(waiting.error?.code == .networkConnectionLost)
        #expect(read(&state).0.text == nil)
        #expect(read(&state).0.text == nil)
    }

    @Test func anErrorComesAfterTheChunksBufferedBeforeIt() {
        var state = State(highWater: 100)
        perform(state.append(chunk("x")))
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(read(&state).0.text == "x")
        #expect(read(&state).0.error?.code == .networkConnectionLost)
        #expect(read(&state).0.text == nil)
    }

    @Test func finishingWhilePausedLeavesNothingPausedAndLaterEventsDoNothing() {
        var state = State(highWater: 2)
        #expect(perform(state.append(chunk("abc"))) == .pause)
        perform(state.finish(nil))
        #expect(!state.producerIsPaused)
        #expect(perform(state.append(chunk("late"))) == nil)
        #expect(perform(state.finish(URLError(.timedOut))) == nil)
        #expect(read(&state).0.text == "abc")
        #expect(read(&state).0.text == nil)
    }

    @Test func emptyChunksAreIgnored() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        perform(state.append(Data()))
        #expect(waiting.resumes == 0)
        perform(state.append(chunk("a")))
        #expect(waiting.text == "a")
    }

    // MARK: Cancel in every state

    @Test func cancellingAnOpenBodyStopsTheProducerAndFailsTheNextRead() {
        var state = State(highWater: 100)
        #expect(perform(state.cancel(with: cancelled)) == .cancel)
        #expect(state.isEnded)
        #expect(read(&state).0.error?.code == .cancelled)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingResumesTheWaitingReaderOnce() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.cancel(with: cancelled)) == .cancel)
        #expect(waiting.error?.code == .cancelled)
        perform(state.cancel(with: cancelled))
        perform(state.append(chunk("late")))
        perform(state.finish(nil))
        #expect(waiting.resumes == 1)
    }

    @Test func cancellingAPausedBodyDropsItsChunksAndStopsTheProducer() {
        var state = State(highWater: 4)
        #expect(perform(state.append(chunk("abcdef"))) == .pause)
        #expect(perform(state.cancel(with: cancelled)) == .cancel)
        #expect(!state.producerIsPaused)
        #expect(state.bufferedBytes == 0)
        #expect(read(&state).0.error?.code == .cancelled)
    }

    @Test func cancellingAFinishedBodyLeavesTheProducerAloneAndDropsWhatIsUnread() {
        var state = State(highWater: 100)
        perform(state.append(chunk("unread")))
        perform(state.finish(nil))
        #expect(perform(state.cancel(with: cancelled)) == nil)
        #expect(read(&state).0.error?.code == .cancelled)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingAfterTheEndWasReadChangesNothing() {
        var state = State(highWater: 100)
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(read(&state).0.error?.code == .networkConnectionLost)
        #expect(perform(state.cancel(with: cancelled)) == nil)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingTwiceTellsTheProducerOnce() {
        var state = State(highWater: 100)
        #expect(perform(state.cancel(with: cancelled)) == .cancel)
        #expect(perform(state.cancel(with: URLError(.timedOut))) == nil)
    }

    // MARK: Terminate

    @Test func terminatingAnOpenBodyIsACancelWithItsError() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.terminate(URLError(.timedOut))) == .cancel)
        #expect(waiting.error?.code == .timedOut)
        #expect(read(&state).0.text == nil)
    }

    @Test func terminatingAfterFinishDoesNothing() {
        var state = State(highWater: 100)
        perform(state.append(chunk("kept")))
        perform(state.finish(nil))
        let action = state.terminate(URLError(.timedOut))
        #expect(action.reader == nil)
        #expect(action.producer == nil)
        #expect(read(&state).0.text == "kept")
        #expect(read(&state).0.text == nil)
    }

    @Test func terminatingAfterAFailureKeepsTheFailure() {
        var state = State(highWater: 100)
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(perform(state.terminate(URLError(.timedOut))) == nil)
        #expect(read(&state).0.error?.code == .networkConnectionLost)
    }
}

/// The bound for an engine that cannot pause: past the unread limit the body fails instead of
/// growing, and the producer is told to cancel.
@Suite struct ResponseBodyStateUnreadLimitTests {
    private typealias State = ResponseBodyState<String>

    @Test func passingTheUnreadLimitFailsTheBodyAfterWhatWasBuffered() throws {
        var state = State(highWater: 4)
        let first = state.append(Data(count: 6), unreadLimit: 10, error: URLError(.dataLengthExceedsMaximum))
        #expect(first.producer == .pause, "past the high-water mark, as for any producer")
        let over = state.append(Data(count: 6), unreadLimit: 10, error: URLError(.dataLengthExceedsMaximum))
        #expect(over.producer == .cancel)
        #expect(state.isEnded)
        let buffered = state.next("r1")
        #expect(try buffered.reader?.1.get()?.count == 6)
        let end = state.next("r2")
        #expect(throws: URLError(.dataLengthExceedsMaximum)) { try end.reader?.1.get() }
    }

    @Test func aWaitingReaderTakesTheChunkWhateverTheLimit() throws {
        var state = State(highWater: 4)
        _ = state.next("r")
        let handed = state.append(Data(count: 64), unreadLimit: 10, error: URLError(.dataLengthExceedsMaximum))
        #expect(handed.reader?.0 == "r")
        #expect(!state.isEnded)
    }
}
