#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

private struct Greeting: Codable, Sendable {
    var text: String
}

/// `APIClient` over real transports: typed requests in, typed values or `APIError`s out.
@Suite(.testServer, .timeLimit(.minutes(5))) struct APIClientEndToEndTests {
    func client(_ transport: TransportKind) throws -> APIClient {
        APIClient(baseURL: try sharedServer().baseURL, networking: transport.networking)
    }

    @Test(arguments: TransportKind.configured)
    func decodesAGetThroughThePhantomType(_ transport: TransportKind) async throws {
        let echo = try await client(transport).send(Request<Echo>("get", method: .get([URLQueryItem(name: "q", value: "a&b")])))
        #expect(echo.args == ["q": ["a&b"]])
    }

    @Test(arguments: TransportKind.configured)
    func postsJSONWithContentType(_ transport: TransportKind) async throws {
        let echo = try await client(transport).send(Request<Echo>("anything", method: .post(.json(Greeting(text: "hi")))))
        #expect(echo.method == "POST")
        #expect(echo.bodyText == #"{"text":"hi"}"#)
        #expect(echo.headerValues("Content-Type") == ["application/json"])
    }

    /// A client over a transport builds each request with the policies' fields, so the layers
    /// find them and the wire has them once; its own headers win, and a value with CR or LF is
    /// refused before anything is sent.
    @Test(arguments: TransportKind.configured)
    func thePoliciesFieldsGoOutOnceAndARequestsOwnWin(_ transport: TransportKind) async throws {
        var policies = Policies()
        policies.headers = ["X-Team": "core", "Accept": "application/json"]
        policies.userAgent = "Courier-Test/1"
        let engine = try transport.makeTransport(policies: policies)
        let client = APIClient(baseURL: try sharedServer().baseURL, transport: engine)
        let echo = try await client.send(Request<Echo>("anything", headers: ["accept": "text/plain"]))
        let built = try client.urlRequest(for: Request<Echo>("anything"))
        await engine.shutdown()
        #expect(echo.headerValues("X-Team") == ["core"])
        #expect(echo.headerValues("User-Agent") == ["Courier-Test/1"])
        #expect(echo.headerValues("Accept") == ["text/plain"])
        #expect(built.value(forHTTPHeaderField: "User-Agent") == "Courier-Test/1")

        policies.headers = ["X-Key": "x\r\nInjected: yes"]
        let refusing = try transport.makeTransport(policies: policies)
        let marker = "anything/refused-\(UUID().uuidString)"
        await #expect {
            try await APIClient(baseURL: try sharedServer().baseURL, transport: refusing).send(Request<Data>(marker))
        } throws: { error in
            guard let error = error as? APIError, case .invalidRequest = error.kind else { return false }
            return true
        }
        await refusing.shutdown()
        #expect(try sharedServer().lastRequest?.uri.contains(marker) != true)
    }

    @Test(arguments: TransportKind.configured)
    func voidRequestsAcceptEmptyBodies(_ transport: TransportKind) async throws {
        try await client(transport).send(Request<Void>("status/204", method: .delete))
        try await client(transport).send(Request<Void>("get", method: .head))
    }

    @Test(arguments: TransportKind.configured, [(404, "not found"), (500, "server error"), (401, "unauthorized"), (418, "client error 418")])
    func statusErrorsAreTyped(_ transport: TransportKind, expected: (status: Int, kind: String)) async throws {
        let client = try client(transport)
        do {
            try await client.send(Request<Void>("status/\(expected.status)"))
            Issue.record("expected an error")
        } catch {
            #expect(error.kind.description == expected.kind)
            #expect(error.statusCode == expected.status)
            #expect(error.url == (try sharedServer()).url("/status/\(expected.status)"))
        }
    }

    @Test(arguments: TransportKind.configured)
    func decodingErrorsKeepTheBody(_ transport: TransportKind) async throws {
        let client = try client(transport)
        do {
            _ = try await client.send(Request<Greeting>("get"))
            Issue.record("expected a decoding error")
        } catch {
            guard case .decoding = error.kind else { Issue.record("unexpected \(error)"); return }
            #expect(error.body?.isEmpty == false)
        }
    }

    @Test(arguments: TransportKind.configured)
    func timeoutsAreTransportErrorsWithTheURLError(_ transport: TransportKind) async throws {
        let client = try client(transport)
        do {
            // A server that never answers: only the timeout can end the call, however late it
            // fires on a loaded machine.
            try await client.send(Request<Void>("never", timeoutInterval: 0.5))
            Issue.record("expected a timeout")
        } catch {
            #expect(error.urlError?.code == .timedOut)
            #expect(error.method == "GET")
        }
    }
}
