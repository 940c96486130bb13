#if os(Linux)
import CourierProxyTestSupport
import CourierTestServer
import CourierTestSupport
import CourierWebSocketTestSupport
import Foundation
import Testing

/// `courier ws` against NIOWebSocket's server on 127.0.0.1, through a TLS relay and a proxy on
/// loopback: stdin's lines or pieces out as messages, the server's messages on stdout, the exit
/// status from how the WebSocket ended. Without `--transport` the tool opens it with curl.
///
/// One at a time: each runs the tool beside a server of its own, and a dozen at once on a small
/// machine starved the other suites' WebSocket tests past their time limits.
@Suite(.serialized, .timeLimit(.minutes(2))) struct WebSocketCommandTests {
    /// `courier ws`, waiting for the server's answer to a close as long as only a hang takes:
    /// the default 5 seconds is a bound on time, which a loaded machine can pass.
    static let ws = ["ws", "--close-timeout", "\(TestRun.hangLimit.components.seconds)"]

    @Test func echoesLinesInOrderAndClosesWith1000AtTheEndOfInput() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let input = Data("hello\n\nκόσμε\r\nafter a CRLF\nlast, without a newline".utf8)
        let result = try await withInputFile(input) { stdin in
            try await CourierToolProcess.run(Self.ws + ["-v", server.url()], standardInput: stdin)
        }
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "hello\n\nκόσμε\nafter a CRLF\nlast, without a newline\n")
        #expect(await firstClose(of: server) == TestWebSocketServer.ReceivedClose(code: 1000, reason: ""))
        // -v: the server's answer to the handshake, then how the WebSocket closed.
        let stderr = result.stderrLines
        #expect(stderr.first == "< HTTP/1.1 101 Switching Protocols", "\(result.stderrText)")
        #expect(stderr.contains("< Upgrade: websocket"), "\(result.stderrText)")
        #expect(stderr.last == "* closed with 1000 (normal closure)", "\(result.stderrText)")
        try await server.shutdown()
    }

    /// Each line is written to the tool's stdin only once the echo of the one before came out
    /// of its stdout: a tool that waited for more input before sending, or held messages back,
    /// never answers the first line.
    @Test func aConversationThroughStdinAndStdout() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let tool = try InteractiveTool(Self.ws + ["--transport", "curl", server.url()])
        for line in (1...5).map({ Data("line \($0)\n".utf8) }) {
            try tool.write(line)
            let echo = try await offTheTaskThreads { [tool] in try tool.read(count: line.count) }
            #expect(echo == line)
        }
        try tool.closeInput()
        let (status, rest, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        #expect(rest.isEmpty)
        try await server.shutdown()
    }

    /// stdin closes only once every echo came back, so that no bound on the close handshake
    /// decides how long the echoes may take.
    @Test func binarySendsStdinAsItsBytesAndWritesTheEchoUnchanged() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let input = TestServer.deterministicBytes(count: 200_000, seed: 11)
        let tool = try InteractiveTool(Self.ws + ["--binary", server.url()])
        // Written and read at once, on threads of their own: neither pipe holds 200 kB.
        async let written: Void = offTheTaskThreads { [tool] in try tool.write(input) }
        let echo = try await offTheTaskThreads { [tool] in try tool.read(count: input.count) }
        try await written
        // A Bool, not the Data: on failure Testing would diff 200 kB, which takes hours.
        let same = echo == input
        #expect(same, "\(echo.count) of \(input.count) bytes came back, or others")
        try tool.closeInput()
        let (status, rest, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        #expect(rest.isEmpty)
        try await server.shutdown()
    }

    /// The server sends 1 MiB in 64 frames; the tool writes it as one message: for text, one
    /// line. stdin closes once it came, as above.
    @Test(arguments: [true, false])
    func aFragmentedMebibyteMessageArrivesWhole(text: Bool) async throws {
        let length = 1 << 20
        let server = try await TestWebSocketServer.start(.sendFragmented(length: length, fragmentLength: 16 << 10, text: text))
        let tool = try InteractiveTool(Self.ws + (text ? [] : ["--binary"]) + [server.url()])
        let expected = Data(TestWebSocketServer.fragmentedPayload(length: length)) + (text ? Data("\n".utf8) : Data())
        let received = try await offTheTaskThreads { [tool] in try tool.read(count: expected.count) }
        // A Bool, not the Data: on failure Testing would diff 1 MiB, which takes hours.
        let same = received == expected
        #expect(same, "\(received.count) of \(expected.count) bytes, or others")
        try tool.closeInput()
        let (status, rest, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        #expect(rest.isEmpty)
        try await server.shutdown()
    }

    /// stdin stays open, so the close is the server's alone.
    @Test func aServerCloseWith1008ExitsSeventySixNamingTheCodeAndReason() async throws {
        let server = try await TestWebSocketServer.start(.closeFirst(code: 1008, reason: "no guests"))
        let tool = try InteractiveTool(Self.ws + [server.url(path: "chat")])
        let (status, stdout, stderr) = try await tool.finish()
        #expect(status == 76, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(stderr == "courier: the server closed the WebSocket with 1008 (policy violation): no guests (GET http://127.0.0.1:\(server.port)/chat)\n")
        try await server.shutdown()
    }

    @Test func aServerCloseWith1001ExitsZero() async throws {
        let server = try await TestWebSocketServer.start(.closeFirst(code: 1001, reason: "restarting"))
        let tool = try InteractiveTool(Self.ws + [server.url()])
        let (status, stdout, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(stderr.isEmpty)
        try await server.shutdown()
    }

    @Test func wssWithCACertAndNotWithoutIt() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        try await withWebSocketTLSRelay(to: server.port) { relay, files in
            let url = "wss://127.0.0.1:\(relay.port)/socket"
            let trusted = try await withInputFile(Data("over TLS\n".utf8)) { stdin in
                try await CourierToolProcess.run(Self.ws + ["--cacert", files.caBundlePath, url], standardInput: stdin)
            }
            #expect(trusted.status == 0, "\(trusted.stderrText)")
            #expect(trusted.stdoutText == "over TLS\n")
            let untrusted = try await CourierToolProcess.run(["ws", url])
            #expect(untrusted.status == 60, "\(untrusted.stderrText)")
            #expect(untrusted.stderrLines.count == 1, "\(untrusted.stderrText)")
            #expect(untrusted.stderrText.hasPrefix("courier: GET https://127.0.0.1:\(relay.port)/socket: "), "\(untrusted.stderrText)")
        }
        try await server.shutdown()
    }

    @Test func goesThroughAnHTTPProxyWithItsLogin() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let proxy = try await TestProxy.start(.http, login: ProxyLogin(user: "alice", password: "s3cret"), hosts: ["chat.test": "127.0.0.1"])
        let result = try await withInputFile(Data("through the tunnel\n".utf8)) { stdin in
            try await CourierToolProcess.run(
                Self.ws + ["-x", proxy.url(), "-U", "alice:s3cret", "ws://chat.test:\(server.port)/socket"], standardInput: stdin)
        }
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText == "through the tunnel\n")
        #expect(proxy.records.map(\.command) == [.connect])
        #expect(proxy.records.map(\.host) == ["chat.test"])
        #expect(proxy.records.map(\.user) == ["alice"])
        try await proxy.shutdown()
        try await server.shutdown()
    }

    /// An HTTP server stands in for the WebSocket one, since it counts the connections it
    /// accepted: none.
    @Test func urlsessionRefusesNamingCurlTransportWithNothingSent() async throws {
        let server = try await TestServer.start()
        let result = try await CourierToolProcess.run(["ws", "--transport", "urlsession", "ws://127.0.0.1:\(server.port)/socket"])
        #expect(result.status == 4, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.contains("URLSessionTransport cannot open a WebSocket"), "\(result.stderrText)")
        #expect(result.stderrText.contains("nothing was sent (CurlTransport can)"), "\(result.stderrText)")
        #expect(server.acceptedConnectionCount == 0)
        try await server.shutdown()
    }

    /// As `courier … | head -c 1024`: the tool stops at the first write that fails, with 23 and
    /// nothing on stderr, and tells the server it is going away. stdin stays open, so only the
    /// closed stdout ends it.
    @Test func aClosedStdoutExitsTwentyThreeAndClosesWithGoingAway() async throws {
        let server = try await TestWebSocketServer.start(.flood(messages: 4096, length: 1024))
        let stdin = Pipe()
        let result = try await CourierToolProcess.runIntoClosedPipe(
            Self.ws + [server.url()], readBytes: 1024, standardInput: stdin.fileHandleForReading)
        try stdin.fileHandleForWriting.close()
        #expect(result.reason == .exit)
        #expect(result.status == 23, "\(result.stderrText)")
        #expect(result.read.count == 1024)
        #expect(result.stderr.isEmpty, "\(result.stderrText)")
        #expect(await firstClose(of: server)?.code == 1001)
        try await server.shutdown()
    }

    /// stdin stays open, so the only close is the one the echo over the limit causes.
    @Test func aMessageOverMaxMessageSizeExitsSixtyThreeAndClosesWith1009() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let tool = try InteractiveTool(Self.ws + ["--max-message-size", "1000", server.url()])
        try tool.write(Data((String(repeating: "x", count: 2000) + "\n").utf8))
        let (status, stdout, stderr) = try await tool.finish()
        #expect(status == 63, "\(stderr)")
        #expect(stdout.isEmpty)
        #expect(stderr.split(separator: "\n").count == 1, "\(stderr)")
        #expect(await firstClose(of: server)?.code == 1009)
        try await server.shutdown()
    }

    /// The server answers each ping with a pong and then the text "ping", so the tool's pings
    /// show on its stdout while stdin stays open.
    @Test func pingIntervalSendsPings() async throws {
        let server = try await TestWebSocketServer.start(.announcePings)
        let tool = try InteractiveTool(Self.ws + ["--ping-interval", "0.05", server.url()])
        let announced = try await offTheTaskThreads { [tool] in try tool.read(count: 5) }
        #expect(announced == Data("ping\n".utf8))
        try tool.closeInput()
        let (status, _, stderr) = try await tool.finish()
        #expect(status == 0, "\(stderr)")
        try await server.shutdown()
    }

    @Test func aLineThatIsNotUTF8ExitsTwentySixAfterClosing() async throws {
        let server = try await TestWebSocketServer.start(.echo)
        let result = try await withInputFile(Data("fine\n".utf8) + Data([0xFF, 0xFE, 0x0A])) { stdin in
            try await CourierToolProcess.run(Self.ws + [server.url()], standardInput: stdin)
        }
        #expect(result.status == 26, "\(result.stderrText)")
        #expect(result.stdoutText == "fine\n")
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.contains("line 2 of standard input is not UTF-8"), "\(result.stderrText)")
        #expect(await firstClose(of: server)?.code == 1000)
        try await server.shutdown()
    }

    /// The same failure as `courier request` meets: the same line, the same curl code.
    @Test func aRefusedConnectionFailsAsCourierRequestDoes() async throws {
        let request = try await CourierToolProcess.run(["request", "--transport", "curl", "http://127.0.0.1:9/socket"])
        let ws = try await CourierToolProcess.run(["ws", "ws://127.0.0.1:9/socket"])
        #expect(request.status == 7)
        #expect(ws.status == 7, "\(ws.stderrText)")
        #expect(ws.stderrLines.count == 1, "\(ws.stderrText)")
        let prefix = "courier: GET http://127.0.0.1:9/socket: transport failed: URLError -1004"
        #expect(request.stderrText.hasPrefix(prefix), "\(request.stderrText)")
        #expect(ws.stderrText.hasPrefix(prefix), "\(ws.stderrText)")
    }

    /// As curl exits for a refused upgrade, with the line `courier request --fail` writes.
    @Test func aHandshakeAnsweredWithoutA101ExitsTwentyTwo() async throws {
        let server = try await TestServer.start()
        let ws = try await CourierToolProcess.run(["ws", "ws://127.0.0.1:\(server.port)/status/404"])
        let request = try await CourierToolProcess.run(["request", "--transport", "curl", "--fail", "http://127.0.0.1:\(server.port)/status/404"])
        #expect(ws.status == 22, "\(ws.stderrText)")
        #expect(ws.stdout.isEmpty)
        #expect(ws.stderrLines.count == 1, "\(ws.stderrText)")
        #expect(ws.stderrText == request.stderrText)
        try await server.shutdown()
    }

    static let refusedBeforeConnecting: [([String], Int32)] = [
        (["ftp://127.0.0.1/socket"], 1),
        (["ws://"], 3),
        (["--max-message-size", "0", "ws://127.0.0.1:9/"], 64),
        (["--ping-interval", "0", "ws://127.0.0.1:9/"], 64),
        (["--http2", "ws://127.0.0.1:9/"], 64),
    ]

    @Test(arguments: refusedBeforeConnecting)
    func aBadURLOrFlagExitsBeforeConnecting(arguments: [String], status: Int32) async throws {
        let result = try await CourierToolProcess.run(["ws"] + arguments)
        #expect(result.status == status, "\(result.stderrText)")
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
    }

    /// As `courier request` prints it: the handshake's method, then the text as given.
    @Test func aBadURLsLineNamesTheHandshakesMethod() async throws {
        let result = try await CourierToolProcess.run(["ws", "ftp://127.0.0.1/socket"])
        #expect(result.status == 1, "\(result.stderrText)")
        #expect(result.stderrLines == [
            "courier: GET \"ftp://127.0.0.1/socket\": invalid URL: expected an absolute ws://, wss://, http:// or https:// URL",
        ])
    }

    // MARK: Helpers

    /// The first close frame `server` received; nil when its stream ended without one.
    private func firstClose(of server: TestWebSocketServer) async -> TestWebSocketServer.ReceivedClose? {
        var closes = server.receivedCloses.makeAsyncIterator()
        return await closes.next()
    }
}

/// `--compressed` against Python's websockets, which speaks permessage-deflate and says what it
/// agreed and how the client's frames came.
@Suite(
    .timeLimit(.minutes(2)),
    .enabled("needs Python's websockets 17 in .build-python/: run scripts/websockets (scripts/setup runs it)") {
        await WebSocketDeflateTestServer.isAvailable()
    }
)
struct WebSocketCommandCompressionTests {
    struct Stats: Decodable {
        struct Frame: Decodable {
            var compressed: Bool
        }

        var extensions: String?
        var frames: [Frame]
    }

    /// stdin closes once the answer to `stats?` came: the server does not answer it once the
    /// close began.
    @Test(arguments: [true, false])
    func compressedOffersPermessageDeflate(compressed: Bool) async throws {
        try await withWebSocketDeflateServer { server in
            let tool = try InteractiveTool(WebSocketCommandTests.ws + (compressed ? ["--compressed"] : []) + [server.url().absoluteString])
            try tool.write(Data("hello\nstats?\n".utf8))
            let output = try await offTheTaskThreads { [tool] in
                var output = Data()
                while output.filter({ $0 == UInt8(ascii: "\n") }).count < 2 { output += try tool.read(count: 1) }
                return output
            }
            try tool.closeInput()
            let (status, _, stderr) = try await tool.finish()
            #expect(status == 0, "\(stderr)")
            let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
            #expect(lines.first == "hello")
            let stats = try JSONDecoder().decode(Stats.self, from: Data(try #require(lines.last).utf8))
            // The server lists the client's frames only when it agreed to compression.
            #expect(stats.extensions == (compressed ? "permessage-deflate" : nil))
            #expect(stats.frames.map(\.compressed) == (compressed ? [true] : []))
        }
    }
}

/// Runs `body` with a file holding `bytes` as the tool's stdin.
private func withInputFile<T>(_ bytes: Data, _ body: (FileHandle) async throws -> T) async throws -> T {
    let path = temporaryPath(".in")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try bytes.write(to: URL(fileURLWithPath: path))
    let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    return try await body(handle)
}
#endif
