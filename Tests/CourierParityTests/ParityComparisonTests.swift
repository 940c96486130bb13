#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierParity
import Foundation
import Testing

/// The comparison on hand-made outcomes: no sockets.
@Suite struct ParityComparisonTests {
    private let url = URL(string: "http://127.0.0.1:1/get")

    private func response(status: Int = 200, headers: [(name: String, value: String)] = [], body: String = "") -> ExchangeOutcome {
        .response(ExchangeResponse(statusCode: status, headers: HeaderFields(headers), body: Data(body.utf8), url: url))
    }

    @Test func identicalResponsesAgree() {
        let outcome = response(headers: [("Content-Type", "text/plain")], body: "hi")
        #expect(ParityComparison().firstDifference(urlSession: outcome, curl: outcome) == nil)
    }

    @Test func headerNamesAreCaseInsensitive() {
        let urlSession = response(headers: [("Content-Type", "text/plain")])
        let curl = response(headers: [("content-type", "text/plain")])
        #expect(ParityComparison().firstDifference(urlSession: urlSession, curl: curl) == nil)
    }

    @Test func repeatedValuesAreComparedInOrder() {
        let urlSession = response(headers: [("X-A", "1"), ("x-a", "2")])
        let curl = response(headers: [("X-A", "2"), ("X-A", "1")])
        let difference = ParityComparison().firstDifference(urlSession: urlSession, curl: curl)
        #expect(difference == ParityDifference(field: .header("x-a"), urlSession: "1 | 2", curl: "2 | 1"))
    }

    @Test func ignoredHeadersNeverDiffer() {
        let urlSession = response(headers: [("Date", "Mon, 01 Jan 2024 00:00:00 GMT")])
        let curl = response(headers: [("Date", "Mon, 01 Jan 2024 00:00:01 GMT"), ("Keep-Alive", "timeout=5")])
        #expect(ParityComparison().firstDifference(urlSession: urlSession, curl: curl) == nil)
        #expect(IgnoredHeader.all.allSatisfy { !$0.reason.isEmpty && $0.name == $0.name.lowercased() })
    }

    @Test func theFirstDifferenceFollowsFieldOrder() {
        let urlSession = response(status: 200, headers: [("X-B", "1")], body: "a")
        let curl = response(status: 201, headers: [("X-B", "2")], body: "b")
        let differences = ParityComparison().differences(urlSession: urlSession, curl: curl)
        #expect(differences.map(\.field) == [.statusCode, .header("x-b"), .body])
    }

    @Test func onlySelectedFieldsAreCompared() {
        let urlSession = response(status: 200, body: "a")
        let curl = response(status: 201, body: "b")
        let comparison = ParityComparison(fields: [.body])
        #expect(comparison.differences(urlSession: urlSession, curl: curl).map(\.field) == [.body])
    }

    @Test func aResponseAndAFailureDifferInOutcome() {
        let difference = ParityComparison(fields: []).firstDifference(
            urlSession: response(), curl: .failure(.urlError(.timedOut))
        )
        #expect(difference?.field == .outcome)
        #expect(difference?.urlSession == "status 200")
    }

    @Test func failuresCompareByCode() {
        let comparison = ParityComparison()
        let timedOut = ExchangeOutcome.failure(ExchangeFailure(URLError(.timedOut)))
        #expect(comparison.firstDifference(urlSession: timedOut, curl: .failure(.urlError(.timedOut))) == nil)
        let refused = ExchangeOutcome.failure(.requestError(.invalidMethod("GET X")))
        #expect(comparison.firstDifference(urlSession: timedOut, curl: refused)?.field == .failure)
    }

    @Test func longBodiesAreDescribedByLengthAndFirstDifference() {
        let urlSession = response(body: String(repeating: "a", count: 300))
        let curl = response(body: String(repeating: "a", count: 299) + "b")
        let difference = ParityComparison().firstDifference(urlSession: urlSession, curl: curl)
        #expect(difference?.urlSession == "300 bytes; at offset 299: 0x61")
        #expect(difference?.curl == "300 bytes; at offset 299: 0x62")
    }

    @Test func receivedRequestsCompareMethodTargetHeadersAndBody() {
        let sent = ReceivedRequest(method: "POST", target: "/a?b=1", headers: HeaderFields([(name: "X", value: "1")]), body: Data("x".utf8))
        var other = sent
        other.target = "/a?b=2"
        other.headers = HeaderFields([(name: "x", value: "1"), (name: "Date", value: "now")])
        let comparison = ParityComparison(fields: .all)
        #expect(comparison.differences(urlSession: sent, curl: other).map(\.field) == [.receivedTarget])
        #expect(comparison.differences(urlSession: sent, curl: nil).map(\.field) == [.receivedRequest])
        #expect(ParityComparison().differences(urlSession: sent, curl: nil).isEmpty)
    }
}
