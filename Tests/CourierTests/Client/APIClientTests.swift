#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import Foundation
import Testing

private struct User: Codable, Equatable, Sendable {
    var id: Int
    var name: String
}

@Suite struct APIClientTests {
    let base = URL(string: "http://127.0.0.1:1/api/")!

    @Test func decodesThroughThePhantomType() async throws {
        let client = APIClient(baseURL: base, networking: stub(status: 200, body: #"{"id":1,"name":"Ada"}"#))
        let user = try await client.send(Request<User>("users/1"))
        #expect(user == User(id: 1, name: "Ada"))
    }

    @Test func usesTheInjectedDecoder() async throws {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        struct Profile: Decodable { var displayName: String }
        let client = APIClient(baseURL: base, networking: stub(status: 200, body: #"{"display_name":"A"}"#), decoder: decoder)
        #expect(try await client.send(Request<Profile>("me")).displayName == "A")
    }

    @Test func voidAndDataResponsesNeedNoDecoding() async throws {
        let client = APIClient(baseURL: base, networking: stub(status: 204))
        try await client.send(Request<Void>("users/1", method: .delete))
        let raw = APIClient(baseURL: base, networking: stub(status: 200, body: "not json"))
        #expect(try await raw.send(Request<Data>("blob")) == Data("not json".utf8))
    }

    @Test(arguments: [
        (400, "bad request"), (401, "unauthorized"), (403, "forbidden"), (404, "not found"),
        (418, "client error 418"), (429, "client error 429"), (500, "server error"),
        (503, "server error 503"), (304, "unexpected status 304"),
    ])
    func statusCodesMapToTypedErrors(status: Int, kind: String) async {
        let client = APIClient(baseURL: base, networking: stub(status: status, body: "oops"))
        do {
            try await client.send(Request<Void>("thing", method: .post(.text("x"))))
            Issue.record("expected \(status) to fail")
        } catch {
            #expect(error.kind.description == kind)
            #expect(error.statusCode == status)
            #expect(error.method == "POST")
            #expect(error.url?.absoluteString == "http://127.0.0.1:1/api/thing")
            #expect(error.body == Data("oops".utf8))
            #expect(error.description.contains("POST http://127.0.0.1:1/api/thing (status \(status))"))
        }
    }

    @Test func statusKindsAreDistinct() {
        #expect({ if case .otherClientError(418) = APIError.kind(forStatusCode: 418) { true } else { false } }())
        #expect({ if case .otherServerError(502) = APIError.kind(forStatusCode: 502) { true } else { false } }())
        #expect({ if case .serverError = APIError.kind(forStatusCode: 500) { true } else { false } }())
        #expect(APIError.kind(forStatusCode: 299) == nil)
    }

    @Test func decodingFailureKeepsTheDecodingErrorAndBody() async {
        let client = APIClient(baseURL: base, networking: stub(status: 200, body: #"{"id":"one"}"#))
        do {
            _ = try await client.send(Request<User>("users/1"))
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding(let decodingError) = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
            guard case .typeMismatch = decodingError else {
                Issue.record("unexpected \(decodingError)")
                return
            }
            #expect(error.body == Data(#"{"id":"one"}"#.utf8))
            #expect(error.statusCode == 200)
        }
    }

    @Test func unformableURLIsAnInvalidRequestNotACrash() async {
        let client = APIClient(baseURL: URL(string: "ftp://127.0.0.1/")!, networking: stub(status: 200))
        do {
            try await client.send(Request<Void>("x"))
            Issue.record("expected an invalid request")
        } catch {
            guard case .invalidRequest(.unsupportedScheme("ftp", _)) = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(error.method == "GET")
        }
    }

    @Test func transportFailureKeepsTheURLError() async {
        let failing: Networking = { _ in throw URLError(.cannotConnectToHost) }
        let client = APIClient(baseURL: base, networking: failing)
        do {
            try await client.send(Request<Void>("x"))
            Issue.record("expected a transport error")
        } catch {
            #expect(error.urlError?.code == .cannotConnectToHost)
            #expect(error.url?.absoluteString == "http://127.0.0.1:1/api/x")
            #expect(error.head == nil)
        }
    }

    @Test func requestErrorsFromTheTransportAreInvalidRequests() async {
        let refusing: Networking = { request in
            try request.validateForSending()
            return try await stub(status: 200)(request)
        }
        let dispatcher = Dispatcher(networking: refusing)
        var request = URLRequest(url: base)
        request.allHTTPHeaderFields = ["X-Bad": "a\rb"]
        do {
            _ = try await dispatcher.dispatch(request)
            Issue.record("expected an invalid request")
        } catch {
            guard case .invalidRequest(.invalidHeader(name: "X-Bad", _)) = error.kind else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func nonHTTPResponsesAreReported() async {
        let ftpish: Networking = { request in (Data(), URLResponse(url: request.url!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)) }
        do {
            _ = try await Dispatcher(networking: ftpish).dispatch(URLRequest(url: base))
            Issue.record("expected notHTTP")
        } catch {
            guard case .notHTTP = error.kind else { Issue.record("unexpected \(error)"); return }
        }
    }

    @Test func acceptableStatusCodesAreConfigurable() async throws {
        let dispatcher = Dispatcher(networking: stub(status: 304), acceptableStatusCodes: 200..<400)
        let (_, response) = try await dispatcher.dispatch(URLRequest(url: base))
        #expect(response.statusCode == 304)
    }
}
