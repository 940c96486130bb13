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

    /// An action's case, with a chunk as its text, the end as nil and an error as its code, so
    /// tests compare cases. Each case of every action has its own.
    private enum Told: Equatable {
        case none
        case pauseProducer
        case cancelProducer
        case wait
        case waitAndResumeProducer
        case resumeReader(String?)
        case failReader(URLError.Code?)
        case resumeReaderAndProducer(String)
        case cancelProducerAndFailReader(URLError.Code?)
    }

    private static func told(_ result: Result<Data?, any Error>) -> Told {
        switch result {
        case .success(let data): .resumeReader(data.map { String(decoding: $0, as: UTF8.self) })
        case .failure(let error): .failReader((error as? URLError)?.code)
        }
    }

    /// Performs `action` as the storage does (resumes the reader it names) and says its case.
    @discardableResult
    private func perform(_ action: State.AppendAction) -> Told {
        switch action {
        case .none: return .none
        case .resumeReader(let reader, let chunk):
            reader.take(.success(chunk))
            return Self.told(.success(chunk))
        case .pauseProducer: return .pauseProducer
        }
    }

    @discardableResult
    private func perform(_ action: State.FinishAction) -> Told {
        switch action {
        case .none: return .none
        case .resumeReader(let reader, let result):
            reader.take(result)
            return Self.told(result)
        }
    }

    @discardableResult
    private func perform(_ action: State.NextAction) -> Told {
        switch action {
        case .resumeReader(let reader, let result):
            reader.take(result)
            return Self.told(result)
        case .resumeReaderAndProducer(let reader, let chunk):
            reader.take(.success(chunk))
            return .resumeReaderAndProducer(String(decoding: chunk, as: UTF8.self))
        case .wait: return .wait
        case .waitAndResumeProducer: return .waitAndResumeProducer
        }
    }

    @discardableResult
    private func perform(_ action: State.CancelAction) -> Told {
        switch action {
        case .none: return .none
        case .cancelProducer: return .cancelProducer
        case .cancelProducerAndFailReader(let reader, let error):
            reader.take(.failure(error))
            return .cancelProducerAndFailReader((error as? URLError)?.code)
        }
    }

    /// Reads once with a fresh reader, returning it and what the read was told.
    private func read(_ state: inout State) -> (Reader, Told) {
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
        #expect(told == .wait)
        #expect(perform(state.append(chunk("a"))) == .resumeReader("a"))
        #expect(perform(state.append(chunk("b"))) == .none)
        #expect(waiting.text == "a")
        #expect(state.bufferedBytes == 1)
        #expect(read(&state).0.text == "b")
        #expect(state.bufferedBytes == 0)
    }

    @Test func theProducerPausesAtTheHighMarkOnceAndResumesBelowTheLowMark() {
        var state = State(highWater: 10)
        #expect(perform(state.append(chunk("aaaa"))) == .none)
        #expect(perform(state.append(chunk("bbbb"))) == .none)
        #expect(perform(state.append(chunk("cccc"))) == .pauseProducer)
        #expect(state.producerIsPaused)
        // An engine may deliver what it has in hand after being told to pause; no second pause.
        #expect(perform(state.append(chunk("dd"))) == .none)
        #expect(state.bufferedBytes == 14)
        var (reader, told) = read(&state)
        #expect(reader.text == "aaaa")
        #expect(told == .resumeReader("aaaa"))
        (reader, told) = read(&state)
        #expect(reader.text == "bbbb")
        #expect(told == .resumeReader("bbbb")) // 6 left: not yet below the low mark of 5
        (reader, told) = read(&state)
        #expect(reader.text == "cccc")
        #expect(told == .resumeReaderAndProducer("cccc"))
        #expect(!state.producerIsPaused)
        (reader, told) = read(&state)
        #expect(reader.text == "dd")
        #expect(told == .resumeReader("dd"))
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
        #expect(perform(state.finish(nil)) == .none)
        #expect(state.isEnded)
        #expect(read(&state).0.text == "last")
        #expect(read(&state).0.text == nil)
        #expect(read(&state).0.text == nil)
    }

    @Test func anErrorIsDeliveredOnceThenNil() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.finish(URLError(.networkConnectionLost))) == .failReader(.networkConnectionLost))
        #expect(waiting.error?.code == .networkConnectionLost)
        #expect(read(&state).0.text == nil)
        #expect(read(&state).0.text == nil)
    }

    @Test func anErrorComesAfterTheChunksBufferedBeforeIt() {
        var state = State(highWater: 100)
        perform(state.append(chunk("x")))
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(read(&state).0.text == "x")
        #expect(read(&state).1 == .failReader(.networkConnectionLost))
        #expect(read(&state).1 == .resumeReader(nil))
    }

    @Test func finishingWhilePausedLeavesNothingPausedAndLaterEventsDoNothing() {
        var state = State(highWater: 2)
        #expect(perform(state.append(chunk("abc"))) == .pauseProducer)
        perform(state.finish(nil))
        #expect(!state.producerIsPaused)
        #expect(perform(state.append(chunk("late"))) == .none)
        #expect(perform(state.finish(URLError(.timedOut))) == .none)
        #expect(read(&state).0.text == "abc")
        #expect(read(&state).0.text == nil)
    }

    @Test func emptyChunksAreIgnored() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.append(Data())) == .none)
        #expect(waiting.resumes == 0)
        perform(state.append(chunk("a")))
        #expect(waiting.text == "a")
    }

    // MARK: Cancel in every state

    @Test func cancellingAnOpenBodyStopsTheProducerAndFailsTheNextRead() {
        var state = State(highWater: 100)
        #expect(perform(state.cancel(with: cancelled)) == .cancelProducer)
        #expect(state.isEnded)
        #expect(read(&state).0.error?.code == .cancelled)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingResumesTheWaitingReaderOnce() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.cancel(with: cancelled)) == .cancelProducerAndFailReader(.cancelled))
        #expect(waiting.error?.code == .cancelled)
        #expect(perform(state.cancel(with: cancelled)) == .none)
        #expect(perform(state.append(chunk("late"))) == .none)
        #expect(perform(state.finish(nil)) == .none)
        #expect(waiting.resumes == 1)
    }

    @Test func cancellingAPausedBodyDropsItsChunksAndStopsTheProducer() {
        var state = State(highWater: 4)
        #expect(perform(state.append(chunk("abcdef"))) == .pauseProducer)
        #expect(perform(state.cancel(with: cancelled)) == .cancelProducer)
        #expect(!state.producerIsPaused)
        #expect(state.bufferedBytes == 0)
        #expect(read(&state).0.error?.code == .cancelled)
    }

    @Test func cancellingAFinishedBodyLeavesTheProducerAloneAndDropsWhatIsUnread() {
        var state = State(highWater: 100)
        perform(state.append(chunk("unread")))
        perform(state.finish(nil))
        #expect(perform(state.cancel(with: cancelled)) == .none)
        #expect(read(&state).0.error?.code == .cancelled)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingAfterTheEndWasReadChangesNothing() {
        var state = State(highWater: 100)
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(read(&state).0.error?.code == .networkConnectionLost)
        #expect(perform(state.cancel(with: cancelled)) == .none)
        #expect(read(&state).0.text == nil)
    }

    @Test func cancellingTwiceTellsTheProducerOnce() {
        var state = State(highWater: 100)
        #expect(perform(state.cancel(with: cancelled)) == .cancelProducer)
        #expect(perform(state.cancel(with: URLError(.timedOut))) == .none)
    }

    // MARK: Terminate

    @Test func terminatingAnOpenBodyIsACancelWithItsError() {
        var state = State(highWater: 100)
        let (waiting, _) = read(&state)
        #expect(perform(state.terminate(URLError(.timedOut))) == .cancelProducerAndFailReader(.timedOut))
        #expect(waiting.error?.code == .timedOut)
        #expect(read(&state).0.text == nil)
    }

    @Test func terminatingAfterFinishDoesNothing() {
        var state = State(highWater: 100)
        perform(state.append(chunk("kept")))
        perform(state.finish(nil))
        #expect(perform(state.terminate(URLError(.timedOut))) == .none)
        #expect(read(&state).0.text == "kept")
        #expect(read(&state).0.text == nil)
    }

    @Test func terminatingAfterAFailureKeepsTheFailure() {
        var state = State(highWater: 100)
        perform(state.finish(URLError(.networkConnectionLost)))
        #expect(perform(state.terminate(URLError(.timedOut))) == .none)
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
        guard case .appended(.pauseProducer) = first else {
            Issue.record("past the high-water mark, the producer is told to pause as any producer is: \(first)")
            return
        }
        let over = state.append(Data(count: 6), unreadLimit: 10, error: URLError(.dataLengthExceedsMaximum))
        guard case .cancelProducer = over else {
            Issue.record("past the unread limit the producer is told to cancel: \(over)")
            return
        }
        #expect(state.isEnded)
        #expect(!state.producerIsPaused)
        guard case .resumeReader("r1", .success(let buffered)) = state.next("r1") else {
            Issue.record("the buffered chunk was not read first")
            return
        }
        #expect(buffered?.count == 6)
        guard case .resumeReader("r2", .failure(let error)) = state.next("r2") else {
            Issue.record("the end was not the error")
            return
        }
        #expect((error as? URLError)?.code == .dataLengthExceedsMaximum)
    }

    @Test func aWaitingReaderTakesTheChunkWhateverTheLimit() throws {
        var state = State(highWater: 4)
        _ = state.next("r")
        let handed = state.append(Data(count: 64), unreadLimit: 10, error: URLError(.dataLengthExceedsMaximum))
        guard case .appended(.resumeReader("r", let chunk)) = handed else {
            Issue.record("the waiting reader did not get the chunk: \(handed)")
            return
        }
        #expect(chunk.count == 64)
        #expect(!state.isEnded)
    }
}
