#if os(Linux)
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierWebSocket
import CourierWebSocketTestSupport
import Foundation
import Testing

@testable import CourierCurl

/// The public WebSocket over the curl engine: messages, the close, and the policies over the
/// opening handshake, against real servers on loopback.
@Suite struct CurlTransportWebSocketTests {
    @Test func echoesTextAndBinaryMessagesThenClosesNormally() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()), options: patient)
        #expect(socket.head.statusCode == 101)
        #expect(socket.subprotocol == nil)
        #expect(socket.url?.scheme == "http")
        try await socket.send(.string("hello"))
        try await socket.send(.data(Data([0, 1, 2, 255])))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .string("hello"))
        #expect(try await messages.next() == .data(Data([0, 1, 2, 255])))
        try await socket.close(.normalClosure, reason: "done")
        #expect(try await messages.next() == nil)
        #expect(socket.closeCode == .normalClosure)
        #expect(await server.firstClose() == TestWebSocketServer.ReceivedClose(code: 1000, reason: "done"))
        await #expect(throws: WebSocketCloseError.self) { try await socket.send(.string("late")) }
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func pingReturnsOnceThePongIsRead() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()), options: patient)
        let roundTrip = try await socket.ping()
        #expect(roundTrip > .zero)
        try await socket.close()
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aServerCloseWithPolicyViolationEndsTheMessagesWithItsCodeAndReason() async throws {
        let server = try await TestWebSocketServer.start(.closeFirst(code: 1008, reason: "no guests"))
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()))
        do {
            for try await _ in socket.messages {}
            Issue.record("the messages ended without an error")
        } catch let error as WebSocketCloseError {
            #expect(error.code == .policyViolation)
            #expect(error.reason == "no guests")
            #expect(error.closedByServer)
            #expect("\(error)".hasPrefix("the server closed the WebSocket with 1008 (policy violation): no guests (GET http://127.0.0.1:"))
        }
        #expect(socket.closeCode == .policyViolation)
        #expect(socket.closeReason == "no guests")
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aServerCloseWith1000EndsTheMessagesNormally() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()))
        for try await _ in socket.messages {}
        #expect(socket.closeCode == .normalClosure)
        // The server records the echo of its close as it reads it, which may be after the
        // client saw the connection end.
        await waitUntil { server.closeCodes == [1000] }
        #expect(server.closeCodes == [1000])
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func theHandshakeCarriesTheRequestsFieldsTheUserAgentAndStoredCookies() async throws {
        let server = try await HandshakeScriptServer.start(
            [.upgradeThenClose(fields: ["Set-Cookie: session=abc; Path=/"])], accept: WebSocketHandshake.acceptValue(forKey:))
        var policies = Policies()
        policies.userAgent = "chat-app/2"
        let cookies = CookieStore()
        policies.cookies = cookies
        let transport = try CurlTransport(configuration: configuration(policies))
        var handshake = request(server.url(path: "chat?room=1"))
        handshake.setValue("v1", forHTTPHeaderField: "X-Client-Version")
        let socket = try await transport.webSocket(for: handshake)
        for try await _ in socket.messages {}
        let head = try #require(server.requestHeads.first)
        #expect(head.hasPrefix("GET /chat?room=1 HTTP/1.1\r\n"))
        #expect(head.contains("\r\nX-Client-Version: v1"))
        #expect(head.contains("\r\nUser-Agent: chat-app/2"))
        #expect(head.contains("\r\nHost: 127.0.0.1:\(server.port)"))
        // The 101's cookie is kept for the server's next request, as a plain request's would be.
        #expect(cookies.cookieHeader(for: try #require(URL(string: "http://127.0.0.1:\(server.port)/next"))) == "session=abc")
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aRejectedCredentialIsRefreshedOnceAndTheHandshakeSentAgain() async throws {
        let server = try await HandshakeScriptServer.start(
            [.status("HTTP/1.1 401 Unauthorized", fields: ["WWW-Authenticate: Bearer"]), .upgradeThenClose()],
            accept: WebSocketHandshake.acceptValue(forKey:))
        let origin = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        let refreshes = Locked(0)
        let authentication = Authentication(origin: origin, credential: .bearer("old")) { _ in
            refreshes.withLock { $0 += 1 }
            return .bearer("new")
        }
        var policies = Policies()
        policies.callLayers = [authentication]
        let transport = try CurlTransport(configuration: configuration(policies))
        let socket = try await transport.webSocket(for: request(server.url()))
        for try await _ in socket.messages {}
        let heads = server.requestHeads
        #expect(heads.count == 2)
        #expect(heads.first?.contains("\r\nAuthorization: Bearer old") == true)
        #expect(heads.last?.contains("\r\nAuthorization: Bearer new") == true)
        #expect(refreshes.withLock { $0 } == 1)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aRedirectInAnswerToTheHandshakeIsRefusedNotFollowed() async throws {
        let server = try await HandshakeScriptServer.start(
            [.status("HTTP/1.1 302 Found", fields: ["Location: /elsewhere"]), .upgradeThenClose()],
            accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        do {
            _ = try await transport.webSocket(for: request(server.url()))
            Issue.record("the handshake succeeded")
        } catch let error as URLError {
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("302 redirect to /elsewhere, which a WebSocket does not follow"))
            #expect(error.localizedDescription.contains("(GET http://127.0.0.1:\(server.port)/socket)"))
        }
        #expect(server.requestHeads.count == 1)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func anAnswerOtherThan101FailsNamingTheStatus() async throws {
        let server = try await HandshakeScriptServer.start([.status("HTTP/1.1 403 Forbidden")], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        do {
            _ = try await transport.webSocket(for: request(server.url()))
            Issue.record("the handshake succeeded")
        } catch let error as URLError {
            #expect(error.code == .badServerResponse)
            #expect(error.localizedDescription.contains("answered the WebSocket handshake with 403"))
            #expect(error.localizedDescription.contains("not 101 Switching Protocols"))
        }
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func callLayersSeeTheHandshake() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        let recorder = HandshakeRecorder()
        var policies = Policies()
        policies.callLayers = [recorder]
        let transport = try CurlTransport(configuration: configuration(policies))
        let socket = try await transport.webSocket(for: request(server.url()))
        for try await _ in socket.messages {}
        #expect(recorder.seen.withLock { $0 } == ["GET http://127.0.0.1:\(server.port)/socket 101"])
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func theTotalDeadlineBoundsAHandshakeThatIsNeverAnswered() async throws {
        let server = try await HandshakeScriptServer.start([.silence], accept: WebSocketHandshake.acceptValue(forKey:))
        var policies = Policies()
        policies.totalDeadline = 0.2
        let transport = try CurlTransport(configuration: configuration(policies))
        let error = await #expect(throws: URLError.self) { _ = try await transport.webSocket(for: request(server.url())) }
        #expect(error?.code == .timedOut)
        #expect(error?.localizedDescription.contains("total deadline of 0.2 s") == true)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func theIdleTimeoutClosesASilentSocketWithGoingAway() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenWait()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()), options: .init(idleTimeout: 0.2))
        do {
            for try await _ in socket.messages {}
            Issue.record("the messages ended without an error")
        } catch let error as URLError {
            #expect(error.code == .timedOut)
            #expect(error.localizedDescription.contains("the client closed with 1001 (going away)"))
        }
        await waitUntil { server.closeCodes == [1001] }
        #expect(server.closeCodes == [1001])
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func theServersSubprotocolIsTheOneOffered() async throws {
        let server = try await HandshakeScriptServer.start(
            [.upgradeThenClose(fields: ["Sec-WebSocket-Protocol: chat.v2"])], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()), options: .init(protocols: ["chat.v2", "chat.v1"]))
        #expect(socket.subprotocol == "chat.v2")
        #expect(server.requestHeads.first?.contains("\r\nSec-WebSocket-Protocol: chat.v2, chat.v1") == true)
        for try await _ in socket.messages {}
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aCloseCodeThatIsNeverSentIsRefusedWithNothingSent() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenWait()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let socket = try await transport.webSocket(for: request(server.url()), options: .init(closeTimeout: 0.2))
        await #expect(throws: RequestError.self) { try await socket.close(.abnormalClosure) }
        #expect(server.closeCodes.isEmpty)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aNonGETHandshakeIsRefusedWithNothingSent() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        var post = request(server.url())
        post.httpMethod = "POST"
        await #expect(throws: RequestError.self) { _ = try await transport.webSocket(for: post) }
        #expect(server.connections == 0)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func droppingTheSocketEndsTheConnection() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenWait()], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        var socket: WebSocket? = try await transport.webSocket(for: request(server.url()))
        #expect(socket?.head.statusCode == 101)
        #expect(server.endedConnections == 0)
        socket = nil
        await waitUntil { server.endedConnections == 1 }
        #expect(server.endedConnections == 1)
        // Dropped, not closed: no close frame went.
        #expect(server.closeCodes.isEmpty)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aSocketOpensOverAUnixDomainSocket() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-ws-\(UUID().uuidString.prefix(8)).sock").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], unixSocketPath: path, accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let url = try #require(URL.unixSocket(path, path: "/over-unix"))
        let socket = try await transport.webSocket(for: URLRequest(url: url))
        for try await _ in socket.messages {}
        #expect(socket.closeCode == .normalClosure)
        #expect(server.requestHeads.first?.hasPrefix("GET /over-unix HTTP/1.1\r\n") == true)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func aDNSOverrideSendsANameToLoopbackWithItsHostField() async throws {
        let server = try await HandshakeScriptServer.start([.upgradeThenClose()], accept: WebSocketHandshake.acceptValue(forKey:))
        var configuration = CurlTransport.Configuration()
        configuration.resolve = [.init(host: "chat.example", port: server.port, addresses: ["127.0.0.1"])]
        let transport = try CurlTransport(configuration: configuration)
        let socket = try await transport.webSocket(for: request("ws://chat.example:\(server.port)/room"))
        for try await _ in socket.messages {}
        #expect(server.requestHeads.first?.contains("\r\nHost: chat.example:\(server.port)\r\n") == true)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func anAPIClientOpensASocketAtAPathOfItsBaseURL() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let transport = try CurlTransport()
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)/")), transport: transport)
        try await expectEcho("typed", over: client.webSocket(Request("socket"), options: patient))
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func anAPIClientAnswersARefusedHandshakeWithTheStatusKind() async throws {
        let server = try await HandshakeScriptServer.start(
            [.status("HTTP/1.1 401 Unauthorized", fields: ["WWW-Authenticate: Bearer"])], accept: WebSocketHandshake.acceptValue(forKey:))
        let transport = try CurlTransport()
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)/")), transport: transport)
        let error = await #expect(throws: APIError.self) { _ = try await client.webSocket(Request("socket")) }
        #expect(error?.kind == .unauthorized)
        #expect(error?.head?.statusCode == 401)
        await transport.shutdown()
        try await server.shutdown()
    }

    @Test func anAPIClientOverANetworkingFunctionRefusesByName() async throws {
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:1/"))) { _ in throw URLError(.cancelled) }
        let error = await #expect(throws: APIError.self) { _ = try await client.webSocket(Request("socket")) }
        guard case .invalidRequest(.unsupportedOption(_, let transport, let supportedBy)) = error?.kind else {
            Issue.record("expected an unsupportedOption refusal, got \(String(describing: error))")
            return
        }
        #expect(transport == "APIClient(baseURL:networking:)")
        #expect(supportedBy == "APIClient(baseURL:transport:)")
    }

    /// What `TransportKind.makeTransport` gives, and what the `courier` tool holds: the socket
    /// opens through the existential as through the concrete type.
    @Test func aTransportHeldAsAnyHTTPTransportOpensASocket() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let transport: any HTTPTransport = try TransportKind.curl.makeTransport()
        try await expectEcho("existential", over: transport.webSocket(for: request(server.url()), options: patient))
        await transport.shutdown()
        try await server.shutdown()
    }

    /// A transport written outside Courier has no WebSocket handshake: refused by its type's
    /// name before anything is sent (nothing listens on port 1, so a connection attempt would
    /// fail with a `URLError` instead).
    @Test func aTransportOfItsOwnIsRefusedByNameWithNothingSent() async throws {
        let inner = try CurlTransport()
        let transport = TransportOfItsOwn(inner: inner)
        let error = await #expect(throws: RequestError.self) {
            _ = try await transport.webSocket(for: request("ws://127.0.0.1:1/socket"))
        }
        #expect(error == .unsupportedOption("open a WebSocket", transport: "TransportOfItsOwn", supportedBy: "CurlTransport"))
        let client = APIClient(baseURL: try #require(URL(string: "http://127.0.0.1:1/")), transport: transport)
        let clientError = await #expect(throws: APIError.self) { _ = try await client.webSocket(Request("socket")) }
        guard case .invalidRequest(.unsupportedOption(_, let name, _)) = clientError?.kind else {
            Issue.record("expected an unsupportedOption refusal, got \(String(describing: clientError))")
            return
        }
        #expect(name == "TransportOfItsOwn")
        await inner.shutdown()
    }

    /// A close timeout only a hang reaches, for tests whose server answers the close: a loaded
    /// machine may take longer than the default 5 s to carry the answer.
    private let patient = WebSocket.Options(closeTimeout: 120)

    /// Sends `text` over `socket` to an echo server, reads it back, and closes.
    private func expectEcho(_ text: String, over socket: WebSocket) async throws {
        try await socket.send(.string(text))
        var messages = socket.messages.makeAsyncIterator()
        #expect(try await messages.next() == .string(text))
        try await socket.close()
    }

    private func configuration(_ policies: Policies) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.policies = policies
        return configuration
    }

    private func request(_ url: String) -> URLRequest {
        URLRequest(url: URL(string: url)!)
    }
}

/// A transport as an app would write one, over another's engine: an `HTTPTransport` and
/// nothing more.
private struct TransportOfItsOwn: HTTPTransport {
    let inner: CurlTransport
    var policies: Policies { inner.policies }
    var capabilities: TransportCapabilities { inner.capabilities }
    var engine: TransportEngine { inner.engine }
    func shutdown() async {}
}

/// Records each handshake it sees as "METHOD URL STATUS".
private final class HandshakeRecorder: HTTPExchangeLayer {
    let seen = Locked<[String]>([])

    func send<Body: Sendable>(
        _ request: URLRequest, through next: @escaping @Sendable (URLRequest) async throws -> (Body, ResponseHead)
    ) async throws -> (Body, ResponseHead) {
        let (body, head) = try await next(request)
        seen.withLock { $0.append("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "") \(head.statusCode)") }
        return (body, head)
    }
}

/// Waits, 10 ms at a time, until `condition` holds; gives up after two minutes, which only a
/// hang takes.
private func waitUntil(_ condition: () -> Bool) async {
    for _ in 0..<12_000 where !condition() {
        try? await Task.sleep(for: .milliseconds(10))
    }
}
#endif
