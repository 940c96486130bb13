#if os(Linux)
import CourierProxyTestSupport
import CourierTestSupport
import CourierWebSocketTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// The connection over a real socket, against NIOWebSocket's server on 127.0.0.1.
@Suite(.timeLimit(.minutes(5))) struct CurlWebSocketConnectionTests {
    @Test func echoesText() async throws {
        try await withConnection(to: .echo) { connection, _ in
            try await connection.send(.text("hello, κόσμε"))
            #expect(try await connection.receive() == .message(.text("hello, κόσμε")))
        }
    }

    @Test func echoesBinaryUpToOneMebibyte() async throws {
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try await withConnection(to: .echo) { connection, _ in
            try await connection.send(.binary([0, 1, 2, 255]))
            try await connection.send(.binary(large))
            #expect(try await connection.receive() == .message(.binary([0, 1, 2, 255])))
            #expect(try await connection.receive() == .message(.binary(large)))
        }
    }

    /// Over TLS, with the send and the receive under way at once: libcurl's TLS buffers whole
    /// records, so bytes may wait in it with nothing on the socket to announce them.
    @Test func echoesOverTLSWhileSending() async throws {
        let large = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 10) }
        let server = try await TestWebSocketServer.start(.echo)
        let files = try await offThePool { try TLSTestFiles.make() }
        defer { files.remove() }
        let relay = try await WebSocketTLSRelay.start(to: server.port, files: files)
        var configuration = CurlTransport.Configuration()
        configuration.caBundlePath = files.caBundlePath
        do {
            let url = "wss://127.0.0.1:\(relay.port)/socket"
            try await withConnection(to: server, url: url, configuration: configuration) { connection, _ in
                async let sent: Void = {
                    try await connection.send(.binary(large))
                    try await connection.send(.text("after the large one"))
                }()
                let first = try await connection.receive()
                let second = try await connection.receive()
                try await sent
                #expect(first == .message(.binary(large)))
                #expect(second == .message(.text("after the large one")))
                let status = try await connection.close(reason: "tls done")
                #expect(status == WebSocketCloseStatus(code: .normalClosure, reason: "tls done"))
            }
        } catch {
            // Stopping waits for the process: off the cooperative pool, as the HTTPS tests do.
            try? await offThePool { relay.stop() }
            throw error
        }
        try? await offThePool { relay.stop() }
    }

    /// The connection verifies the server as the transport's requests do.
    @Test func aServerTheTransportDoesNotTrustIsRefused() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let files = try await offThePool { try TLSTestFiles.make() }
        defer { files.remove() }
        let relay = try await WebSocketTLSRelay.start(to: server.port, files: files)
        let error = await #expect(throws: CurlError.self) {
            try await withConnection(to: server, url: "wss://127.0.0.1:\(relay.port)/socket") { _, _ in }
        }
        #expect(error?.curlCode == Curl.Code.peerFailedVerification)
        try? await offThePool { relay.stop() }
    }

    /// A reader that takes one message has had at most one chunk read for it: the rest of what
    /// the server sent waits in the kernel, not in the client's memory.
    @Test func aSlowReaderLeavesTheRestUnread() async throws {
        try await withConnection(to: .flood(messages: 4096, length: 1024)) { connection, _ in
            let first = try await connection.receive()
            #expect(first == .message(.binary(Array(repeating: 0x2A, count: 1024))))
            let buffered = await onLoop(connection) { $0.bufferedByteCount }
            #expect(buffered < CurlWebSocketConnection.receiveChunkSize)
            let status = try await connection.close()
            #expect(status == WebSocketCloseStatus(code: .normalClosure))
        }
    }

    @Test func aPingIsAnsweredWithAPong() async throws {
        try await withConnection(to: .echo) { connection, _ in
            try await connection.ping([1, 2, 3])
            #expect(try await connection.receive() == .pong([1, 2, 3]))
        }
    }

    @Test func theServersPingIsAnsweredWithAPong() async throws {
        // The server sends the pong's payload back as text, so the message shows the pong came.
        try await withConnection(to: .pingFirst(Array("are you there".utf8))) { connection, _ in
            let event = try await connection.receive()
            #expect(event == .message(.text("are you there")))
        }
    }

    @Test func theClientClosesWithCodeAndReason() async throws {
        try await withConnection(to: .echo) { connection, server in
            let status = try await connection.close(code: WebSocketCloseCode(4000), reason: "done here")
            #expect(status == WebSocketCloseStatus(code: WebSocketCloseCode(4000), reason: "done here"))
            #expect(await server.firstClose() == TestWebSocketServer.ReceivedClose(code: 4000, reason: "done here"))
            #expect(try await connection.receive() == .closed(status))
            await #expect(throws: WebSocketError.sendAfterClose) { try await connection.send(.text("late")) }
        }
    }

    @Test func theServerClosesWithCodeAndReason() async throws {
        try await withConnection(to: .closeFirst(code: 4001, reason: "server done")) { connection, server in
            let status = WebSocketCloseStatus(code: WebSocketCloseCode(4001), reason: "server done")
            let event = try await connection.receive()
            #expect(event == .closed(status))
            // The echo carries the code without the reason (RFC 6455 §5.5.1).
            #expect(await server.firstClose() == TestWebSocketServer.ReceivedClose(code: 4001, reason: ""))
            let statusAgain = try await connection.close()
            #expect(statusAgain == status)
        }
    }

    @Test func aCloseTheServerNeverAnswersTimesOut() async throws {
        try await withConnection(to: .neverAnswersClose, closeTimeout: .milliseconds(100)) { connection, server in
            await #expect(throws: WebSocketError.closeTimedOut) { try await connection.close(reason: "bye") }
            #expect(await server.firstClose() == TestWebSocketServer.ReceivedClose(code: 1000, reason: "bye"))
        }
    }

    @Test func goesThroughAnHTTPProxyInATunnel() async throws {
        let proxy = try await TestProxy.start(.http)
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .url(proxy.url())
        try await withConnection(to: .echo, configuration: configuration) { connection, _ in
            try await connection.send(.text("through the tunnel"))
            let event = try await connection.receive()
            #expect(event == .message(.text("through the tunnel")))
        }
        #expect(proxy.records.map(\.command) == [.connect])
        try await proxy.shutdown()
    }

    @Test func aMaskedFrameFromTheServerIsClosedOnWith1002() async throws {
        try await withConnection(to: .sendMaskedFrame) { connection, server in
            await #expect(throws: WebSocketError.maskedFrame) { try await connection.receive() }
            let close = await server.firstClose()
            #expect(close?.code == 1002)
            #expect(close?.reason == WebSocketError.maskedFrame.description)
        }
    }

    @Test func aMessageOverTheLimitIsClosedOnWith1009() async throws {
        try await withConnection(to: .echo, maximumMessageLength: 1024) { connection, server in
            try await connection.send(.binary(Array(repeating: 7, count: 2048)))
            await #expect(throws: WebSocketError.messageTooLarge(length: 2048, limit: 1024, fragmented: false)) {
                try await connection.receive()
            }
            #expect(await server.firstClose()?.code == 1009)
        }
    }

    @Test func anAnswerOf200FailsTheHandshake() async throws {
        let error = try await handshakeError(answer: "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
        #expect(error == .notSwitchingProtocols(statusCode: 200))
        #expect(error.description == "the server answered the WebSocket upgrade with 200, not 101")
    }

    @Test func aWrongAcceptFailsTheHandshake() async throws {
        let answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Accept: bm90IHRoZSByaWdodCBrZXk=\r\n\r\n"
        let error = try await handshakeError(answer: answer)
        guard case .acceptMismatch(let expected, let received) = error else {
            Issue.record("expected acceptMismatch, got \(error)")
            return
        }
        #expect(received == "bm90IHRoZSByaWdodCBrZXk=")
        #expect(expected != received)
        #expect(error.description.contains("Sec-WebSocket-Accept is \"bm90IHRoZSByaWdodCBrZXk=\""))
    }

    @Test func anAnswerThatIsNotHTTPFailsTheHandshake() async throws {
        await #expect(throws: CurlWebSocketConnectionError.malformedStatusLine("SSH-2.0-OpenSSH_9.2")) {
            try await withConnection(to: .rawResponse("SSH-2.0-OpenSSH_9.2\r\n\r\n")) { _, _ in }
        }
    }

    // MARK: Helpers

    private func handshakeError(answer: String) async throws -> WebSocketHandshakeError {
        do {
            try await withConnection(to: .rawResponse(answer)) { _, _ in }
        } catch let error as WebSocketHandshakeError {
            return error
        }
        Issue.record("the handshake succeeded")
        return .notSwitchingProtocols(statusCode: 0)
    }

    /// Runs `body` on a connection to a new server in `mode`, on a loop of its own; the loop and
    /// the server are shut down whatever happens.
    private func withConnection(
        to mode: TestWebSocketServer.Mode, configuration: CurlTransport.Configuration = CurlTransport.Configuration(),
        maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength, closeTimeout: Duration = patientClose,
        _ body: (CurlWebSocketConnection, TestWebSocketServer) async throws -> Void
    ) async throws {
        try await withConnection(
            to: try await TestWebSocketServer.start(mode), configuration: configuration,
            maximumMessageLength: maximumMessageLength, closeTimeout: closeTimeout, body)
    }

    /// As above, on `server`, at `url` when given (a relay in front of it).
    private func withConnection(
        to server: TestWebSocketServer, url: String? = nil, configuration: CurlTransport.Configuration = CurlTransport.Configuration(),
        maximumMessageLength: Int = WebSocketConnectionState.defaultMaximumMessageLength, closeTimeout: Duration = patientClose,
        _ body: (CurlWebSocketConnection, TestWebSocketServer) async throws -> Void
    ) async throws {
        let loop = try CurlEventLoop(configuration: configuration)
        do {
            let url = try #require(URL(string: url ?? server.url()))
            let connection = try await CurlWebSocketConnection.connect(
                to: url, configuration: configuration, loop: loop, maximumMessageLength: maximumMessageLength,
                closeTimeout: closeTimeout)
            try await body(connection, server)
        } catch {
            loop.shutDown()
            await loop.awaitTermination()
            try await server.shutdown()
            throw error
        }
        loop.shutDown()
        await loop.awaitTermination()
        try await server.shutdown()
    }
}

/// Reads `connection`'s loop-only state on its loop.
private func onLoop<T: Sendable>(_ connection: CurlWebSocketConnection, _ read: @Sendable (CurlWebSocketConnection) -> T) async -> T {
    await withTaskExecutorPreference(connection.loop) { await readOnLoop(connection, read) }
}

private func readOnLoop<T: Sendable>(_ connection: CurlWebSocketConnection, _ read: @Sendable (CurlWebSocketConnection) -> T) async -> T {
    read(connection)
}

extension TestWebSocketServer {
    /// The first close frame the server received; nil when its stream ended without one.
    func firstClose() async -> ReceivedClose? {
        var closes = receivedCloses.makeAsyncIterator()
        return await closes.next()
    }
}
#endif

/// A close timeout only a hang reaches, for connections whose server answers the close: a loaded
/// machine, or one running a sanitizer, may take longer than the default 5 s to carry the answer.
let patientClose: Duration = .seconds(120)
