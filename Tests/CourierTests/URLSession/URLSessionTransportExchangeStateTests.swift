#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// Every order of events one URLSession task can see, without a socket, in both modes: the
/// continuation is resumed exactly once, with the first reason the task was stopped; a stop
/// answers at once rather than when FoundationNetworking reports the task's end; the end goes to
/// the caller or the body but never both; and the task is cancelled at most once.
@Suite struct URLSessionTransportExchangeStateTests {
    typealias State = URLSessionTransport.ExchangeState<Int, String>

    private let request = URLRequest(url: URL(fileURLWithPath: "/"))
    private let cancelled = URLError(.cancelled)
    private let tooLarge = URLError(.dataLengthExceedsMaximum)

    private func response(_ status: Int = 200) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: status, httpVersion: nil, headerFields: nil))
    }

    /// A streaming state whose head was delivered, its task numbered 1.
    private func streaming() -> State {
        var state = State(mode: .stream)
        _ = state.start(1, continuation: "c")
        _ = state.receiveHead()
        return state
    }

    // MARK: Both modes

    @Test(arguments: [State.Mode.collect, .stream])
    func aStopBeforeTheTaskExistsAnswersAtStartWithTheFirstReason(_ mode: State.Mode) throws {
        var state = State(mode: mode)
        #expect(state.stop(with: URLError(.timedOut)) == .none)
        #expect(state.cancel(with: cancelled) == .none, "the first reason wins")
        #expect(state.start(7, continuation: "c") == .answer("c", URLError(.timedOut), 7))
        #expect(state.receiveHead() == .none)
        // The task's own end, reported later, finds the caller answered.
        #expect(state.complete(.init(error: URLError(.cancelled)), request: request).isNone, "the caller was answered already")
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func aCancelWhileTheCallerWaitsAnswersAtOnceAndOnce(_ mode: State.Mode) throws {
        var state = State(mode: mode)
        #expect(state.start(3, continuation: "c") == .none)
        #expect(state.cancel(with: cancelled) == .answer("c", cancelled, 3))
        #expect(state.cancel(with: cancelled) == .none)
        #expect(state.stop(with: tooLarge) == .none)
        #expect(state.receiveHead() == .none)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
        #expect(state.complete(.init(response: try response()), request: request).isNone, "the caller was answered already")
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func aRefusalAtTheHeadAnswersAtOnce(_ mode: State.Mode) throws {
        var state = State(mode: mode)
        _ = state.start(2, continuation: "c")
        let refused = URLError(.cannotDecodeContentData)
        #expect(state.stop(with: refused) == .answer("c", refused, 2))
        #expect(state.stop(with: URLError(.timedOut)) == .none, "the first reason wins")
        #expect(state.receiveHead() == .none)
        #expect(state.complete(.init(error: URLError(.cancelled)), request: request).isNone, "the caller was answered already")
    }

    /// What the caller of a running exchange is answered with when its task ends with `outcome`.
    private func answer(to outcome: State.Outcome, mode: State.Mode) throws -> Result<(Data, URLResponse), any Error> {
        var state = State(mode: mode)
        _ = state.start(1, continuation: "c")
        guard case .answer("c", let result) = state.complete(outcome, request: request) else {
            throw URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "the caller was not answered"])
        }
        return result
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func aFailureBeforeTheHeadGoesToTheCallerTranslated(_ mode: State.Mode) throws {
        let lost = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "Recv failure: Connection reset by peer"])
        let result = try answer(to: .init(error: lost), mode: mode)
        #expect(result.failureCode == .networkConnectionLost)
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func aChallengedResponseIsTheAnswer(_ mode: State.Mode) throws {
        let outcome = State.Outcome(error: URLError(.userCancelledAuthentication), challenged: try response(401))
        let (_, head) = try answer(to: outcome, mode: mode).get()
        #expect((head as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func anEndWithoutResponseOrErrorIsABadServerResponse(_ mode: State.Mode) throws {
        #expect(try answer(to: .init(), mode: mode).failureCode == .badServerResponse)
    }

    @Test(arguments: [State.Mode.collect, .stream])
    func aRefusedExchangeIgnoresEverythingAfter(_ mode: State.Mode) throws {
        var state = State(mode: mode)
        state.refuse()
        #expect(state.stop(with: URLError(.timedOut)) == .none)
        #expect(state.cancel(with: cancelled) == .none)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
        #expect(state.complete(.init(error: cancelled), request: request).isNone, "the caller was answered already")
    }

    // MARK: Collecting

    @Test func aCollectedBodyGoesToTheCallerOnceWithTheResponse() throws {
        var state = State(mode: .collect)
        #expect(state.start(1, continuation: "c") == .none)
        #expect(state.receiveHead() == .none, "the caller waits for the end")
        #expect(state.receive(Data("ab".utf8), limit: 10, error: tooLarge) == .collected)
        #expect(state.receive(Data("cd".utf8), limit: 10, error: tooLarge) == .collected)
        guard case .answer("c", .success(let (data, _))) = state.complete(.init(response: try response()), request: request) else {
            Issue.record("expected the body with the response")
            return
        }
        #expect(data == Data("abcd".utf8))
        #expect(state.complete(.init(response: try response()), request: request).isNone, "the caller was answered already")
    }

    @Test func aCompletionHandlersBodyIsTheAnswer() throws {
        let outcome = State.Outcome(data: Data("whole".utf8), response: try response())
        let (data, _) = try answer(to: outcome, mode: .collect).get()
        #expect(data == Data("whole".utf8))
    }

    @Test func passingTheLimitWhileCollectingAnswersAtOnceAndDropsWhatFollows() throws {
        var state = State(mode: .collect)
        _ = state.start(5, continuation: "c")
        #expect(state.receive(Data(count: 8), limit: 10, error: tooLarge) == .collected)
        #expect(state.receive(Data(count: 8), limit: 10, error: tooLarge) == .stop(.answer("c", tooLarge, 5)))
        // Bytes FoundationNetworking still delivers after the cancel are dropped, not kept.
        #expect(state.receive(Data(count: 8), limit: 10, error: tooLarge) == .drop)
        #expect(state.stop(with: cancelled) == .none)
        #expect(state.readerCancelled(with: cancelled) == .none)
        #expect(state.complete(.init(error: URLError(.cancelled)), request: request).isNone, "the caller was answered already")
    }

    // MARK: Streaming

    @Test func theHeadResumesTheCallerOnceAndTheEndGoesToTheBody() throws {
        var state = State(mode: .stream)
        _ = state.start(1, continuation: "c")
        #expect(state.receiveHead() == .deliver("c"))
        #expect(state.receiveHead() == .none)
        #expect(state.receive(Data(count: 3), limit: 10, error: tooLarge) == .write)
        guard case .finishBody = state.complete(.init(response: try response()), request: request) else {
            Issue.record("expected a complete body")
            return
        }
        #expect(state.complete(.init(response: try response()), request: request).isNone, "the body has its end already")
    }

    @Test func aFailureAfterTheHeadGoesToTheBodyTranslated() throws {
        var state = streaming()
        let lost = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 100 bytes remaining to read"])
        guard case .failBody(let error) = state.complete(.init(response: try response(), error: lost), request: request) else {
            Issue.record("expected a failed body")
            return
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }

    @Test func aStopWhileStreamingFailsTheBodyOnce() throws {
        var state = streaming()
        let timedOut = URLError(.timedOut)
        #expect(state.stop(with: timedOut) == .failBody(timedOut, 1))
        #expect(state.stop(with: tooLarge) == .none)
        #expect(state.readerCancelled(with: cancelled) == .none)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
        guard case .failBody(let error) = state.complete(.init(error: URLError(.cancelled)), request: request) else {
            Issue.record("expected a failed body")
            return
        }
        #expect((error as? URLError)?.code == .timedOut)
    }

    @Test func passingTheLimitWhileStreamingFailsTheBodyAndCancelsTheTaskOnce() {
        var state = streaming()
        #expect(state.receive(Data(count: 8), limit: 10, error: tooLarge) == .write)
        #expect(state.receive(Data(count: 8), limit: 10, error: tooLarge) == .stop(.failBody(tooLarge, 1)))
        #expect(state.readerCancelled(with: tooLarge) == .none, "the overflow cancelled the task already")
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
    }

    @Test func bytesBeforeTheHeadAreDropped() {
        var state = State(mode: .stream)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
        _ = state.start(1, continuation: "c")
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
    }

    @Test func theCallersCancelAfterTheHeadLeavesTheBodyToItsReader() {
        var state = streaming()
        #expect(state.cancel(with: cancelled) == .none)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .write)
    }

    @Test func theReadersCancelCancelsTheTaskOnceAndWinsOverLaterErrors() throws {
        var state = streaming()
        #expect(state.readerCancelled(with: cancelled) == .cancelTask(1))
        #expect(state.readerCancelled(with: cancelled) == .none)
        #expect(state.receive(Data(count: 1), limit: 10, error: tooLarge) == .drop)
        guard case .failBody(let error) = state.complete(.init(error: URLError(.networkConnectionLost)), request: request) else {
            Issue.record("expected a failed body")
            return
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func readerCancelsBeforeTheHeadOrAfterTheEndDoNothing() throws {
        var state = State(mode: .stream)
        #expect(state.readerCancelled(with: cancelled) == .none)
        _ = state.start(1, continuation: "c")
        #expect(state.readerCancelled(with: cancelled) == .none)
        _ = state.receiveHead()
        _ = state.complete(.init(response: try response()), request: request)
        #expect(state.readerCancelled(with: cancelled) == .none)
        #expect(state.cancel(with: cancelled) == .none)
        #expect(state.receiveHead() == .none)
    }
}

extension URLSessionTransport.ExchangeState.CompleteAction {
    fileprivate var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

extension Result {
    fileprivate var failureCode: URLError.Code? {
        guard case .failure(let error) = self else { return nil }
        return (error as? URLError)?.code
    }
}
