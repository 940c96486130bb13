#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// Every order of events one URLSession task can see, without a socket: the continuation is
/// resumed exactly once, with the first reason the task was stopped.
@Suite struct URLSessionTransportExchangeStateTests {
    private typealias State = URLSessionTransport.ExchangeState<Int, String>

    private let request = URLRequest(url: URL(fileURLWithPath: "/"))
    private let cancelled = URLError(.cancelled)
    private let tooLarge = URLError(.dataLengthExceedsMaximum)

    private func response() throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 200, httpVersion: nil, headerFields: nil))
    }

    @Test func aCompletedTaskResumesItsContinuationOnceWithTheBody() throws {
        var state = State()
        let r1 = state.start(1, continuation: "c", cancellation: cancelled)
        #expect(!r1)
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

    @Test func aCancelBeforeTheTaskExistsCancelsItAtStart() throws {
        var state = State()
        let r5 = state.cancel(with: cancelled)
        #expect(r5 == nil)
        let r6 = state.start(7, continuation: "c", cancellation: cancelled)
        #expect(r6)
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        let (_, result) = try #require(completion)
        #expect(throws: URLError.self) { try result.get() }
    }

    @Test func aCancelWhileRunningNamesTheTaskOnce() {
        var state = State()
        _ = state.start(3, continuation: "c", cancellation: cancelled)
        let r7 = state.cancel(with: cancelled)
        #expect(r7 == 3)
        let r8 = state.cancel(with: cancelled)
        #expect(r8 == nil)
    }

    @Test func passingTheLimitStopsTheTaskDropsTheBodyAndWinsOverLaterErrors() throws {
        var state = State()
        _ = state.start(5, continuation: "c", cancellation: cancelled)
        let r9 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r9 == nil)
        let r10 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r10 == 5)
        // Bytes FoundationNetworking still delivers after the cancel are dropped, not kept.
        let r11 = state.receive(Data(count: 8), limit: 10, error: tooLarge)
        #expect(r11 == nil)
        let r12 = state.cancel(with: cancelled)
        #expect(r12 == nil)
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        let (_, result) = try #require(completion)
        #expect(throws: URLError(.dataLengthExceedsMaximum)) { try result.get() }
    }

    @Test func aRefusalAtTheHeadIsTheError() throws {
        var state = State()
        _ = state.start(2, continuation: "c", cancellation: cancelled)
        let r13 = state.stop(with: URLError(.cannotDecodeContentData))
        #expect(r13 == 2)
        let completion = state.complete(.init(error: URLError(.cancelled)), request: request)
        let (_, result) = try #require(completion)
        #expect(throws: URLError(.cannotDecodeContentData)) { try result.get() }
    }

    @Test func eventsAfterTheEndDoNothing() throws {
        var state = State()
        _ = state.start(4, continuation: "c", cancellation: cancelled)
        _ = state.complete(.init(response: try response()), request: request)
        let r14 = state.cancel(with: cancelled)
        #expect(r14 == nil)
        let r15 = state.receive(Data(count: 1), limit: 10, error: tooLarge)
        #expect(r15 == nil)
        let r16 = state.stop(with: tooLarge)
        #expect(r16 == nil)
    }

    @Test func aChallengedResponseIsTheAnswer() throws {
        var state = State()
        _ = state.start(6, continuation: "c", cancellation: cancelled)
        let challenged = try #require(HTTPURLResponse(url: URL(fileURLWithPath: "/"), statusCode: 401, httpVersion: nil, headerFields: nil))
        let completion = state.complete(.init(error: URLError(.userCancelledAuthentication), challenged: challenged), request: request)
        let (_, result) = try #require(completion)
        #expect((try result.get().1 as? HTTPURLResponse)?.statusCode == 401)
    }

    @Test func anEndWithoutResponseOrErrorIsABadServerResponse() throws {
        var state = State()
        _ = state.start(8, continuation: "c", cancellation: cancelled)
        let completion = state.complete(.init(), request: request)
        let (_, result) = try #require(completion)
        #expect(throws: URLError.self) { try result.get() }
        #expect((result.failure as? URLError)?.code == .badServerResponse)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
