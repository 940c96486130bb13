#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// Every order of events one URLSession task can see, without a socket: the continuation is
/// resumed exactly once, with the first reason the task was stopped, and a stop answers at once
/// rather than when FoundationNetworking reports the task's end.
@Suite struct URLSessionTransportExchangeStateTests {
    private typealias State = URLSessionTransport.ExchangeState<Int, String>
    private typealias Stop = State.Stop

    private let request = URLRequest(url: URL(fileURLWithPath: "/"))
    private let cancelled = URLError(.cancelled)
    private let tooLarge = URLError(.dataLengthExceedsMaximum)

    private func response() throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: nil, headerFields: nil))
    }

    @Test func aCompletedTaskResumesItsContinuationOnceWithTheBody() throws {
        var state = State()
        let r1 = state.start(1, continuation: "c")
        #expect(r1 == nil)
        let r2 = state.receive(Data("ab".utf8), limit: 10, error: tooLarge)
        #expect(r2 == nil)
        let r3 = state.receive(Data("cd".utf8), limit: 10, error: tooLarge)
        #expect(r3 == nil)
        let first = state.complete(.init(response: try response()), request: request)
        #expect(first?.0 == "c")
        #expect(try first?.1.get().0 == Data("abcd".utf8))
        let r4 = state.complete(.init(response: try response()), request: request)
        #expect(r4 == nil)
    }

    @Test func aStopBeforeTheTaskExistsAnswersAtStartWithTheFirstReason() throws {
        var state = State()
        let r5 = state.stop(with: cancelled)
        #expect(r5 == nil)
        let r5b = state.stop(with: URLError(.timedOut))
        #expect(r5b == nil)
        let r6 = state.start(7, continuation: "c")
        #expect(r6 == Stop(task: 7, continuation: "c", error: cancelled))
        // The task's own end, reported later, finds the caller answered.
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        #expect(completion == nil)
    }

    @Test func aCancelWhileRunningAnswersAtOnceAndOnce() {
        var state = State()
        _ = state.start(3, continuation: "c")
        let r7 = state.stop(with: cancelled)
        #expect(r7 == Stop(task: 3, continuation: "c", error: cancelled))
        let r8 = state.stop(with: cancelled)
        #expect(r8 == nil)
    }

    @Test func passingTheLimitAnswersAtOnceAndDropsWhatFollows() throws {
        var state = State()
        _ = state.start(5, continuation: "c")
        let r9 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r9 == nil)
        let r10 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r10 == Stop(task: 5, continuation: "c", error: tooLarge))
        // Bytes FoundationNetworking still delivers after the cancel are dropped, not kept.
        let r11 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r11 == nil)
        let r12 = state.stop(with: cancelled)
        #expect(r12 == nil)
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        #expect(completion == nil)
    }

    @Test func aRefusalAtTheHeadAnswersAtOnce() throws {
        var state = State()
        _ = state.start(2, continuation: "c")
        let refused = URLError(.cannotDecodeContentData)
        let r13 = state.stop(with: refused)
        #expect(r13 == Stop(task: 2, continuation: "c", error: refused))
        let r14 = state.stop(with: URLError(.timedOut))
        #expect(r14 == nil, "the first reason wins")
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        #expect(completion == nil)
    }

    @Test func eventsAfterTheEndDoNothing() throws {
        var state = State()
        _ = state.start(4, continuation: "c")
        _ = state.complete(.init(response: try response()), request: request)
        let r14 = state.stop(with: cancelled)
        #expect(r14 == nil)
        let r15 = state.receive(Data(count: 1), limit: 10, error: tooLarge)
        #expect(r15 == nil)
        let r16 = state.stop(with: tooLarge)
        #expect(r16 == nil)
    }

    @Test func aChallengedResponseIsTheAnswer() throws {
        var state = State()
        _ = state.start(6, continuation: "c")
        let challenged = try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 401, httpVersion: nil, headerFields: nil))
        let completion = state.complete(.init(error: URLError(.userCancelledAuthentication), challenged: challenged), request: request)
        let (_, result) = try #require(completion)
        #expect((try result.get().1 as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test func anEndWithoutResponseOrErrorIsABadServerResponse() throws {
        var state = State()
        _ = state.start(8, continuation: "c")
        let completion = state.complete(.init(), request: request)
        let (_, result) = try #require(completion)
        #expect(throws: URLError.self) { try result.get() }
        #expect((result.failure as? URLError)?.code == .badServerResponse)
    }
}

/// Every order of events one streamed URLSession task can see: the head resumes the caller
/// once, the end goes to the caller or the body but never both, and a cancel in any state stops
/// the task at most once.
@Suite struct URLSessionTransportStreamExchangeStateTests {
    private typealias State = URLSessionTransport.StreamExchangeState<Int, String>

    private let request = URLRequest(url: URL(fileURLWithPath: "/"))
    private let cancelled = URLError(.cancelled)
    private let tooLarge = URLError(.dataLengthExceedsMaximum)

    private func response(_ status: Int = 200) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: status, httpVersion: nil, headerFields: nil))
    }

    /// A state whose head was delivered, its task numbered 1.
    private func streaming() -> State {
        var state = State()
        _ = state.start(1, continuation: "c")
        _ = state.receiveHead()
        return state
    }

    @Test func theHeadResumesTheCallerOnceAndTheEndGoesToTheBody() throws {
        var state = State()
        let cancelAtStart = state.start(1, continuation: "c")
        #expect(cancelAtStart == nil)
        let s1 = state.receiveHead()
        #expect(s1 == "c")
        let s2 = state.receiveHead()
        #expect(s2 == nil)
        let s3 = state.receive(3, limit: 10, error: tooLarge)
        #expect(s3 == .write)
        let completion = state.complete(response: try response(), error: nil, challenged: nil, request: request)
        guard case .endBody(nil) = completion else {
            Issue.record("expected a complete body, got \(String(describing: completion))")
            return
        }
        let s4 = state.complete(response: try response(), error: nil, challenged: nil, request: request)
        #expect(s4 == nil)
    }

    @Test func aFailureBeforeTheHeadGoesToTheCaller() throws {
        var state = State()
        _ = state.start(1, continuation: "c")
        let completion = state.complete(response: nil, error: URLError(.cannotConnectToHost), challenged: nil, request: request)
        guard case .resume("c", .failure(let error)) = completion else {
            Issue.record("expected the caller to fail, got \(String(describing: completion))")
            return
        }
        #expect((error as? URLError)?.code == .cannotConnectToHost)
    }

    @Test func aFailureAfterTheHeadGoesToTheBodyTranslated() throws {
        var state = streaming()
        let lost = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "transfer closed with 100 bytes remaining to read"])
        let completion = state.complete(response: try response(), error: lost, challenged: nil, request: request)
        guard case .endBody(let error?) = completion else {
            Issue.record("expected a failed body, got \(String(describing: completion))")
            return
        }
        #expect((error as? URLError)?.code == .networkConnectionLost)
    }

    @Test func aChallengedResponseIsTheHead() throws {
        var state = State()
        _ = state.start(1, continuation: "c")
        let challenged = try response(401)
        let completion = state.complete(response: nil, error: URLError(.userCancelledAuthentication), challenged: challenged, request: request)
        guard case .resume("c", .success(let head)) = completion else {
            Issue.record("expected the 401 as the head, got \(String(describing: completion))")
            return
        }
        #expect((head as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test func aRefusalAtTheHeadAnswersTheCallerAtOnceAndNoHeadIsDelivered() throws {
        var state = State()
        _ = state.start(1, continuation: "c")
        let refused = URLError(.cannotDecodeContentData)
        let s5 = state.stop(with: refused)
        #expect(s5 == .answer("c", refused, 1))
        let s6 = state.stop(with: tooLarge)
        #expect(s6 == nil)
        let s7 = state.receiveHead()
        #expect(s7 == nil)
        let completion = state.complete(response: nil, error: URLError(.cancelled), challenged: nil, request: request)
        #expect(completion == nil)
    }

    @Test func aStopWhileStreamingFailsTheBodyOnce() throws {
        var state = streaming()
        let timedOut = URLError(.timedOut)
        let s8 = state.stop(with: timedOut)
        #expect(s8 == .failBody(timedOut, 1))
        let s9 = state.stop(with: tooLarge)
        #expect(s9 == nil)
        let s10 = state.readerCancelled(with: cancelled)
        #expect(s10 == nil)
        let s11 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s11 == .drop)
        let completion = state.complete(response: nil, error: URLError(.cancelled), challenged: nil, request: request)
        guard case .endBody(let error?) = completion else {
            Issue.record("expected a failed body, got \(String(describing: completion))")
            return
        }
        #expect((error as? URLError)?.code == .timedOut)
    }

    @Test func passingTheLimitFailsTheBodyAndCancelsTheTaskOnceAndDropsWhatFollows() {
        var state = streaming()
        let s15 = state.receive(8, limit: 10, error: tooLarge)
        #expect(s15 == .write)
        let s16 = state.receive(8, limit: 10, error: tooLarge)
        guard case .overflow(let error, 1) = s16 else {
            Issue.record("expected the overflow to cancel task 1, got \(s16)")
            return
        }
        #expect(error.code == .dataLengthExceedsMaximum)
        let s17 = state.readerCancelled(with: tooLarge)
        #expect(s17 == nil, "the overflow cancelled the task already")
        let s18 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s18 == .drop)
    }

    @Test func bytesBeforeTheHeadAreDropped() {
        var state = State()
        let s20 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s20 == .drop)
        _ = state.start(1, continuation: "c")
        let s21 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s21 == .drop)
    }

    @Test func aStopBeforeTheTaskExistsAnswersAtStart() throws {
        var state = State()
        let timedOut = URLError(.timedOut)
        let s22 = state.stop(with: timedOut)
        #expect(s22 == nil)
        let s22b = state.cancel(with: cancelled)
        #expect(s22b == nil, "the first reason wins")
        let s23 = state.start(1, continuation: "c")
        #expect(s23 == .answer("c", timedOut, 1))
        let s24 = state.receiveHead()
        #expect(s24 == nil)
        let completion = state.complete(response: try response(), error: nil, challenged: nil, request: request)
        #expect(completion == nil)
    }

    @Test func aCancelWhileAwaitingTheHeadAnswersAtOnceAndOnce() throws {
        var state = State()
        _ = state.start(1, continuation: "c")
        let s25 = state.cancel(with: cancelled)
        #expect(s25 == .answer("c", cancelled, 1))
        let s26 = state.cancel(with: cancelled)
        #expect(s26 == nil)
        let s27 = state.receiveHead()
        #expect(s27 == nil)
        let completion = state.complete(response: try response(), error: nil, challenged: nil, request: request)
        #expect(completion == nil)
    }

    @Test func theCallersCancelAfterTheHeadLeavesTheBodyToItsReader() {
        var state = streaming()
        let s28 = state.cancel(with: cancelled)
        #expect(s28 == nil)
        let s29 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s29 == .write)
    }

    @Test func theReadersCancelWhileStreamingCancelsTheTaskOnceAndWinsOverLaterErrors() throws {
        var state = streaming()
        let s30 = state.readerCancelled(with: cancelled)
        #expect(s30 == 1)
        let s31 = state.readerCancelled(with: cancelled)
        #expect(s31 == nil)
        let s32 = state.receive(1, limit: 10, error: tooLarge)
        #expect(s32 == .drop)
        let completion = state.complete(response: nil, error: URLError(.networkConnectionLost), challenged: nil, request: request)
        guard case .endBody(let error?) = completion else {
            Issue.record("expected a failed body, got \(String(describing: completion))")
            return
        }
        #expect((error as? URLError)?.code == .cancelled)
    }

    @Test func cancelsBeforeTheHeadOrAfterTheEndDoNothingToTheBody() throws {
        var state = State()
        let s36 = state.readerCancelled(with: cancelled)
        #expect(s36 == nil)
        _ = state.start(1, continuation: "c")
        let s38 = state.readerCancelled(with: cancelled)
        #expect(s38 == nil)
        _ = state.receiveHead()
        _ = state.complete(response: try response(), error: nil, challenged: nil, request: request)
        let s39 = state.readerCancelled(with: cancelled)
        #expect(s39 == nil)
        let s40 = state.cancel(with: cancelled)
        #expect(s40 == nil)
        let s43 = state.receiveHead()
        #expect(s43 == nil)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
