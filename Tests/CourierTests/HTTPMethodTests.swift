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

    @Test func bodiesThatFailToEncodeCompareTheirErrors() {
        #expect(RequestBody.json(["x": Double.nan]) == .json(["x": Double.nan]))
        #expect(RequestBody.json(["x": Double.nan]) != .json(["x": 1.0]))
    }
}
