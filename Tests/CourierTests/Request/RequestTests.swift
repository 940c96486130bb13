#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing

private struct Todo: Codable, Equatable, Sendable {
    var title: String
    var dueAt: Date
}

@Suite struct RequestTests {
    let base = URL(string: "http://127.0.0.1:8080/")!

    @Test func getCarriesQueryItemsAndNoBody() throws {
        let request = Request<Data>("items", method: .get([URLQueryItem(name: "page", value: "2")]))
        let urlRequest = try request.urlRequest(baseURL: base)
        #expect(urlRequest.httpMethod == "GET")
        #expect(urlRequest.url?.absoluteString == "http://127.0.0.1:8080/items?page=2")
        #expect(urlRequest.httpBody == nil)
    }

    @Test(arguments: [
        (HTTPMethod.head, "HEAD"), (.delete, "DELETE"), (.post(), "POST"), (.put(), "PUT"),
        (.patch(), "PATCH"), (.options, "OPTIONS"), (.custom("PROPFIND"), "PROPFIND"),
    ])
    func methodNamesAreSentAsWritten(method: HTTPMethod, name: String) throws {
        let urlRequest = try Request<Void>("x", method: method).urlRequest(baseURL: base)
        #expect(urlRequest.httpMethod == name)
        #expect(urlRequest.httpBody == nil)
    }

    @Test func jsonBodyUsesTheGivenEncoderAndSetsContentType() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let todo = Todo(title: "ship", dueAt: Date(timeIntervalSince1970: 10))
        let urlRequest = try Request<Todo>("todos", method: .post(.json(todo))).urlRequest(baseURL: base, encoder: encoder)
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/json")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        #expect(try decoder.decode(Todo.self, from: urlRequest.httpBody ?? Data()) == todo)
    }

    @Test func explicitContentTypeWins() throws {
        let request = Request<Void>("x", method: .put(.json(["a": 1])), headers: ["content-type": "application/vnd.api+json"])
        let urlRequest = try request.urlRequest(baseURL: base)
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    }

    @Test func formBodyIsPercentEncoded() throws {
        let request = Request<Void>("x", method: .post(.form([URLQueryItem(name: "a b", value: "1+1=2")])))
        let urlRequest = try request.urlRequest(baseURL: base)
        #expect(urlRequest.httpBody == Data("a%20b=1%2B1%3D2".utf8))
        #expect(urlRequest.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }

    @Test func unencodableBodyIsATypedError() {
        let request = Request<Void>("x", method: .post(.json(["nan": Double.nan])))
        #expect {
            try request.urlRequest(baseURL: base)
        } throws: { error in
            guard case .bodyEncodingFailed = error as? RequestError else { return false }
            return true
        }
    }

    @Test(arguments: ["X-Evil": "a\r\nInjected: 1", "X-Nul": "a\u{0}b", "X-Bell": "\u{7}", "Bad Name": "v", "": "v"])
    func malformedHeadersAreRefused(name: String, value: String) {
        let request = Request<Void>("x", headers: [name: value])
        #expect {
            try request.urlRequest(baseURL: base)
        } throws: { error in
            guard case .invalidHeader(let badName, _) = error as? RequestError else { return false }
            return badName == name
        }
    }

    @Test func tabsAndNonASCIIAreAllowedInValues() throws {
        let urlRequest = try Request<Void>("x", headers: ["X-Note": "a\tb é"]).urlRequest(baseURL: base)
        #expect(urlRequest.value(forHTTPHeaderField: "X-Note") == "a\tb é")
    }

    @Test(arguments: ["", "GET /x", "BAD\r\n", "Ω"])
    func invalidCustomMethodsAreRefused(_ name: String) {
        #expect(throws: RequestError.invalidMethod(name)) {
            try Request<Void>("x", method: .custom(name)).urlRequest(baseURL: base)
        }
    }

    @Test func timeoutIsCarriedOver() throws {
        let urlRequest = try Request<Void>("x", timeoutInterval: 2.5).urlRequest(baseURL: base)
        #expect(urlRequest.timeoutInterval == 2.5)
    }

    @Test func validateForSendingChecksRawURLRequests() {
        var request = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        request.setValue("ok", forHTTPHeaderField: "X-Fine")
        #expect(throws: Never.self) { try request.validateForSending() }
        // Set through allHTTPHeaderFields: FoundationNetworking's setValue drops such values.
        request.allHTTPHeaderFields?["X-Bad"] = "line\nbreak"
        #expect(throws: RequestError.invalidHeader(name: "X-Bad", reason: "value contains LF")) {
            try request.validateForSending()
        }
    }

    @Test(arguments: [-1, -.infinity, .nan] as [TimeInterval])
    func negativeOrNaNTimeoutsAreRefused(_ interval: TimeInterval) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = interval
        #expect(throws: RequestError.invalidTimeout("\(interval)")) { try request.validateForSending() }
    }

    @Test(arguments: [("10", "abc"), ("2", "abcdef"), ("1", nil), ("x", "abc")] as [(String, String?)])
    func aContentLengthThatDisagreesWithTheBodyIsRefused(declared: String, body: String?) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.httpMethod = "POST"
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue(declared, forHTTPHeaderField: "content-length")
        #expect {
            try request.validateForSending()
        } throws: { error in
            guard case .invalidHeader(let name, let reason) = error as? RequestError else { return false }
            return name.lowercased() == "content-length" && reason.contains("says \(declared) bytes")
        }
    }

    @Test func aContentLengthThatMatchesOrDescribesAStreamIsSent() throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.httpMethod = "POST"
        request.httpBody = Data("abc".utf8)
        request.setValue("3", forHTTPHeaderField: "Content-Length")
        #expect(throws: Never.self) { try request.validateForSending() }
        request.httpBodyStream = InputStream(data: Data("abcdef".utf8))
        request.setValue("6", forHTTPHeaderField: "Content-Length")
        #expect(throws: Never.self) { try request.validateForSending() }
        var get = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        get.setValue("0", forHTTPHeaderField: "Content-Length")
        #expect(throws: Never.self) { try get.validateForSending() }
    }

    @Test(arguments: [0, 0.001, 60, 1e300, .infinity] as [TimeInterval])
    func zeroAndLongTimeoutsAreAccepted(_ interval: TimeInterval) throws {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1/")))
        request.timeoutInterval = interval
        #expect(throws: Never.self) { try request.validateForSending() }
    }
}
