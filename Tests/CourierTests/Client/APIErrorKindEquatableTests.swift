#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing

private struct Item: Decodable {
    var id: Int
}

private struct Refusal: Error, Equatable {
    var reason: String
}

private struct Opaque: Error {
    var detail: String
}

/// The `DecodingError` `JSONDecoder` throws for `json` decoded as `Item`.
private func decodingError(_ json: String) -> DecodingError? {
    do {
        _ = try JSONDecoder().decode(Item.self, from: Data(json.utf8))
        return nil
    } catch {
        return error as? DecodingError
    }
}

@Suite struct APIErrorKindEquatableTests {
    @Test func statusKindsCompareTheirCodes() {
        #expect(APIError.Kind.notFound == .notFound)
        #expect(APIError.Kind.notFound != .forbidden)
        #expect(APIError.kind(forStatusCode: 404) == .notFound)
        #expect(APIError.Kind.otherClientError(statusCode: 418) == .otherClientError(statusCode: 418))
        #expect(APIError.Kind.otherClientError(statusCode: 418) != .otherClientError(statusCode: 429))
        #expect(APIError.Kind.otherClientError(statusCode: 502) != .otherServerError(statusCode: 502))
        #expect(APIError.Kind.unexpectedStatus(statusCode: 304) == .unexpectedStatus(statusCode: 304))
        #expect(APIError.Kind.notHTTP == .notHTTP)
    }

    @Test func invalidRequestComparesTheRequestError() {
        #expect(APIError.Kind.invalidRequest(.invalidURL("x")) == .invalidRequest(.invalidURL("x")))
        #expect(APIError.Kind.invalidRequest(.invalidURL("x")) != .invalidRequest(.invalidURL("y")))
    }

    @Test func decodingComparesCaseTypeKeyPathAndDescription() throws {
        let missing = try #require(decodingError("{}"))
        let missingAgain = try #require(decodingError("{}"))
        let mistyped = try #require(decodingError(#"{"id": "seven"}"#))
        let corrupt = try #require(decodingError("{"))
        #expect(APIError.Kind.decoding(missing) == .decoding(missingAgain))
        #expect(APIError.Kind.decoding(missing) != .decoding(mistyped))
        #expect(APIError.Kind.decoding(mistyped) == .decoding(try #require(decodingError(#"{"id": "eight"}"#))))
        #expect(APIError.Kind.decoding(corrupt) != .decoding(mistyped))
        let context = DecodingError.Context(codingPath: [], debugDescription: "wrong")
        #expect(APIError.Kind.decoding(.typeMismatch(Int.self, context)) != .decoding(.typeMismatch(String.self, context)))
        #expect(APIError.Kind.decoding(.typeMismatch(Int.self, context)) != .decoding(.valueNotFound(Int.self, context)))
    }

    @Test func transportComparesURLErrorCodesOnly() throws {
        let failingURL = try #require(URL(string: "http://127.0.0.1:1/"))
        let refused = URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: failingURL])
        #expect(APIError.Kind.transport(refused) == .transport(URLError(.cannotConnectToHost)))
        #expect(APIError.Kind.transport(refused) != .transport(URLError(.timedOut)))
    }

    @Test func transportComparesEquatableErrorsWithTheirOwnEquality() {
        #expect(APIError.Kind.transport(Refusal(reason: "a")) == .transport(Refusal(reason: "a")))
        #expect(APIError.Kind.transport(Refusal(reason: "a")) != .transport(Refusal(reason: "b")))
        #expect(APIError.Kind.transport(RequestError.invalidMethod("A B")) == .transport(RequestError.invalidMethod("A B")))
    }

    @Test func transportComparesOtherErrorsByTypeAndDescription() {
        #expect(APIError.Kind.transport(CancellationError()) == .transport(CancellationError()))
        #expect(APIError.Kind.transport(Opaque(detail: "a")) == .transport(Opaque(detail: "a")))
        #expect(APIError.Kind.transport(Opaque(detail: "a")) != .transport(Opaque(detail: "b")))
        #expect(APIError.Kind.transport(Opaque(detail: "a")) != .transport(Refusal(reason: "a")))
        #expect(APIError.Kind.transport(CancellationError()) != .transport(URLError(.cancelled)))
    }

    @Test func kindsThatDifferInCaseAreUnequal() {
        #expect(APIError.Kind.transport(URLError(.timedOut)) != .notFound)
        #expect(APIError.Kind.serverError != .otherServerError(statusCode: 500))
    }
}
