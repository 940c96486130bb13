import Courier
import Foundation
import Testing

private struct Draft: Encodable, Sendable {
    var title: String
    var done: Bool
}

@Suite struct HTTPMethodTests {
    @Test func methodsCompareByCaseAndPayload() {
        #expect(HTTPMethod.get() == .get([]))
        #expect(HTTPMethod.get([URLQueryItem(name: "q", value: "a")]) == .get([URLQueryItem(name: "q", value: "a")]))
        #expect(HTTPMethod.get([URLQueryItem(name: "q", value: "a")]) != .get([URLQueryItem(name: "q", value: "b")]))
        #expect(HTTPMethod.head != .get())
        #expect(HTTPMethod.delete == .delete)
        #expect(HTTPMethod.post() == .post(nil))
        #expect(HTTPMethod.post() != .put())
        #expect(HTTPMethod.options == .custom("OPTIONS"))
        #expect(HTTPMethod.custom("options") != .options)
        #expect(HTTPMethod.custom("GET") != .get())
    }

    @Test func bodiesCompareContentTypeAndBytes() {
        let draft = Draft(title: "ship", done: false)
        #expect(HTTPMethod.post(.json(draft)) == .post(.json(draft)))
        #expect(HTTPMethod.post(.json(draft)) != .post(.json(Draft(title: "ship", done: true))))
        #expect(HTTPMethod.post(.json(draft)) != .put(.json(draft)))
        #expect(RequestBody.text("a") == .text("a"))
        #expect(RequestBody.text("a") != .text("a", contentType: "text/markdown"))
        #expect(RequestBody.data(Data("a".utf8), contentType: "text/plain; charset=utf-8") == .text("a"))
        #expect(RequestBody.form([URLQueryItem(name: "a", value: "1")]) == .form([URLQueryItem(name: "a", value: "1")]))
    }

    @Test func jsonDictionariesCompareWhateverTheirKeyOrder() {
        var forwards: [String: Int] = [:]
        var backwards: [String: Int] = [:]
        let keys = (0..<32).map { "key\($0)" }
        for (value, key) in keys.enumerated() { forwards[key] = value }
        for (value, key) in keys.enumerated().reversed() { backwards[key] = value }
        #expect(RequestBody.json(forwards) == .json(backwards))
    }

    /// The articles' `method: .post`, written without parentheses, is the case without a payload.
    @Test func aMethodWithoutItsPayloadIsTheCaseWithNone() throws {
        #expect(HTTPMethod.get == .get([]))
        #expect(HTTPMethod.post == .post(nil))
        #expect(HTTPMethod.put == .put(nil))
        #expect(HTTPMethod.patch == .patch(nil))
        let request = try Request<Void>("todos", method: .post).urlRequest(baseURL: URL(string: "https://example.com/"))
        #expect(request.httpMethod == "POST")
        #expect(request.httpBody == nil)
    }

    /// WireKit's body, a `[String: Any]`.
    @Test func aDictionaryBodyIsAJSONObjectWithSortedKeys() throws {
        let body = RequestBody.json(["title": "Test Todo", "completed": true, "tags": ["a"]] as [String: Any])
        #expect(body.contentType == "application/json")
        #expect(String(decoding: try #require(try body.data()), as: UTF8.self) == #"{"completed":true,"tags":["a"],"title":"Test Todo"}"#)
        #expect(body == .json(["tags": ["a"], "completed": true, "title": "Test Todo"] as [String: Any]))
    }

    @Test func aDictionaryJSONCannotWriteFailsWhenTheRequestIsBuilt() {
        let body = RequestBody.json(["when": Date()] as [String: Any])
        #expect {
            try body.data()
        } throws: { error in
            guard case .bodyEncodingFailed(let description) = error as? RequestError else { return false }
            return description.contains("JSONSerialization cannot write")
        }
    }

    @Test func bodiesThatFailToEncodeCompareTheirErrors() {
        #expect(RequestBody.json(["x": Double.nan]) == .json(["x": Double.nan]))
        #expect(RequestBody.json(["x": Double.nan]) != .json(["x": 1.0]))
    }
}
