import CourierTestServer
import Foundation
import Testing

/// `courier request` run as a subprocess against an embedded server, on both transports.
@Suite struct RequestCommandTests {
    static let transports = ["curl", "urlsession"]

    @Test(arguments: transports)
    func bodyGoesToStdoutUnchanged(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, server.url("/bytes/40000?seed=7").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout == TestServer.deterministicBytes(count: 40_000, seed: 7))
        #expect(result.stderr.isEmpty)
    }

    @Test(arguments: transports)
    func includeWritesStatusLineHeadersBlankLineThenBody(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "-i", "--transport", transport, server.url("/bytes/16").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let separator = Data("\r\n\r\n".utf8)
        let split = try #require(result.stdout.range(of: separator))
        let head = String(decoding: result.stdout[..<split.lowerBound], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.first == "HTTP/1.1 200 OK")
        let fields = lines.dropFirst().map { $0.lowercased() }
        #expect(fields.contains("content-length: 16"))
        #expect(fields.allSatisfy { $0.contains(": ") })
        #expect(result.stdout[split.upperBound...] == TestServer.deterministicBytes(count: 16))
    }

    @Test(arguments: transports)
    func outputFileHoldsTheServersBytes(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try await CourierToolProcess.run(["request", "-o", path, "--transport", transport, server.url("/stream-bytes/300000?seed=3").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        // stderr is a file here, not a terminal: no progress line.
        #expect(result.stderr.isEmpty)
        #expect(FileManager.default.contents(atPath: path) == TestServer.deterministicBytes(count: 300_000, seed: 3))
    }

    /// A value with CR or LF is refused, not dropped on the way (FoundationNetworking's
    /// `setValue` drops it silently) and not sent.
    @Test(arguments: transports)
    func aHeaderValueWithALineBreakIsRefused(transport: String) async throws {
        let server = try await TestServer.start()
        let url = server.url("/headers").absoluteString
        let result = try await CourierToolProcess.run(["request", "-H", "X-Bad: a\r\nX-Injected: 1", "--transport", transport, url])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText.contains("invalid header \"X-Bad\""), "\(result.stderrText)")
        #expect(server.requestCount == 0)
        try await server.shutdown()
    }

    @Test(arguments: transports)
    func failOn404ExitsTwentyTwoWithOneLine(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/status/404").absoluteString
        let failing = try await CourierToolProcess.run(["request", "--fail", "--transport", transport, url])
        #expect(failing.status == 22)
        #expect(failing.stdout.isEmpty)
        #expect(failing.stderrLines.count == 1)
        #expect(failing.stderrText.contains("GET \(url)"))
        #expect(failing.stderrText.contains("not found"))

        let plain = try await CourierToolProcess.run(["request", "--transport", transport, url])
        #expect(plain.status == 0, "without --fail a 404 is a response")
    }

    @Test(arguments: transports)
    func refusedConnectionExitsSevenWithOneLine(transport: String) async throws {
        let refusing = try await RefusingPort.open()
        let url = refusing.url("/get").absoluteString
        let result = try await CourierToolProcess.run(["request", "--transport", transport, url])
        try await refusing.close()
        #expect(result.status == 7)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.contains("GET \(url)"))
        #expect(result.stderrText.contains("URLError -1004"))
    }

    @Test(arguments: transports)
    func timeoutExitsTwentyEight(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--timeout", "0.5", "--transport", transport, server.url("/never").absoluteString])
        #expect(result.status == 28)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.contains("URLError -1001"))
    }

    /// As curl: 3 for a URL it cannot parse, 1 for a scheme it does not speak; not usage errors.
    /// The line names the method and the URL as every failure's does, the text quoted.
    @Test func badURLsExitWithCurlsCodes() async throws {
        for (url, status) in [("not a url", Int32(3)), ("ftp://127.0.0.1/file", 1), ("/relative/path", 3), ("", 3)] {
            let result = try await CourierToolProcess.run(["request", url])
            #expect(result.status == status, "\(url): \(result.stderrText)")
            #expect(result.stderrLines == ["courier: GET \(url.debugDescription): invalid URL: expected an absolute http:// or https:// URL"], "\(url)")
        }
    }

    /// The method named is the one the request would have gone by, whatever implies it.
    @Test(arguments: [
        (["-X", "DELETE"], "DELETE"), (["-d", "a=1"], "POST"), (["--json", "{}"], "POST"), (["-F", "a=1"], "POST"),
        (["-T", "/dev/null"], "PUT"), (["-X", "PATCH", "-T", "/dev/null"], "PATCH"),
    ])
    func aBadURLsLineNamesTheMethod(flags: [String], method: String) async throws {
        let result = try await CourierToolProcess.run(["request"] + flags + ["ftp://127.0.0.1/file"])
        #expect(result.status == 1, "\(result.stderrText)")
        #expect(result.stderrLines == ["courier: \(method) \"ftp://127.0.0.1/file\": invalid URL: expected an absolute http:// or https:// URL"])
    }

    @Test func unknownTransportIsAUsageError() async throws {
        let flag = try await CourierToolProcess.run(["request", "--transport", "pigeon", "http://127.0.0.1:1/"])
        #expect(flag.status == 64)
        #expect(flag.stderrText.contains("pigeon"))

        let variable = try await CourierToolProcess.run(["request", "http://127.0.0.1:1/"], environment: ["COURIER_TRANSPORT": "pigeon"])
        #expect(variable.status == 64)
        #expect(variable.stderrText.contains("COURIER_TRANSPORT=\"pigeon\""))
        #expect(variable.stderrText.contains("urlsession, curl"))
    }

    @Test(arguments: ["curl", "urlsession"])
    func transportDefaultsToCourierTransport(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        // The engines send the same requests and give the same answers, but for one: a chunked
        // response with trailers, which libcurl's engine returns and FoundationNetworking traps
        // on (PARITY.md). That one shows which engine was chosen.
        let result = try await CourierToolProcess.run(["request", server.url("/trailers").absoluteString], environment: ["COURIER_TRANSPORT": transport])
        #expect(server.requestCount == 1)
        #expect((result.status == 0) == (transport == "curl"), "exit \(result.status): \(result.stderrText)")
    }

    @Test(arguments: transports)
    func headersAndFormDataReachTheServer(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-X", "PUT", "-H", "X-Trace: abc 123", "-H", "X-Second:two",
            "-d", "a=1&b=2", server.url("/anything").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "PUT")
        #expect(received.value(for: "X-Trace") == "abc 123")
        #expect(received.value(for: "X-Second") == "two")
        #expect(received.value(for: "Content-Type") == "application/x-www-form-urlencoded")
        #expect(received.body == Data("a=1&b=2".utf8))
    }

    @Test(arguments: transports)
    func dataFromAFileIsSentAsIs(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".body")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = TestServer.deterministicBytes(count: 5_000, seed: 11)
        try bytes.write(to: URL(fileURLWithPath: path))
        let result = try await CourierToolProcess.run([
            "request", "--transport", transport, "-H", "Content-Type: application/octet-stream",
            "-d", "@\(path)", server.url("/anything").absoluteString,
        ])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "POST", "-d without -X posts, as curl does")
        #expect(received.value(for: "Content-Type") == "application/octet-stream", "-H overrides -d's default")
        #expect(received.body == bytes)
    }

    @Test(arguments: transports)
    func jsonSetsContentTypeAndAccept(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", transport, "--json", #"{"a":1}"#, server.url("/anything").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        let received = try #require(server.lastRequest)
        #expect(received.method == "POST")
        #expect(received.value(for: "Content-Type") == "application/json")
        #expect(received.value(for: "Accept") == "application/json")
        #expect(received.body == Data(#"{"a":1}"#.utf8))
    }

    @Test(arguments: ["curl", "urlsession"])
    func maxRedirectsLimitsBothTransports(_ transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/redirect/3").absoluteString
        let limited = try await CourierToolProcess.run(["request", "--transport", transport, "--max-redirects", "1", url])
        #expect(limited.status == 47)
        #expect(limited.stderrText.contains("too many redirects: stopped after 1 redirects (the limit)"), "\(limited.stderrText)")

        let enough = try await CourierToolProcess.run(["request", "--transport", transport, "--max-redirects", "3", url])
        #expect(enough.status == 0, "\(enough.stderrText)")

        let none = try await CourierToolProcess.run(["request", "--transport", transport, "--max-redirects", "0", "-i", url])
        #expect(none.status == 0, "\(none.stderrText)")
        #expect(none.stdoutText.hasPrefix("HTTP/1.1 302"), "\(none.stdoutText)")
    }
}

extension RequestCommandTests {
    @Test func unreadableBodyFileExitsTwentySixWithOneLine() async throws {
        let path = temporaryPath(".missing")
        let result = try await CourierToolProcess.run(["request", "-d", "@\(path)", "http://127.0.0.1:1/anything"])
        #expect(result.status == 26)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderrText.contains("POST http://127.0.0.1:1/anything: cannot read the request body"))
    }
}

extension RequestCommandTests {
    /// curl's `-b FILE -c FILE` in one option: cookies set on a redirect reach the next hop, are
    /// written to the jar, and are sent again by the next invocation.
    @Test(arguments: transports)
    func aCookieJarCarriesCookiesAcrossHopsAndInvocations(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let jar = temporaryPath(".cookies")
        defer { try? FileManager.default.removeItem(atPath: jar) }

        let first = try await CourierToolProcess.run(["request", "--transport", transport, "--cookie-jar", jar, server.url("/cookies/set?session=abc").absoluteString])
        #expect(first.status == 0, "\(first.stderrText)")
        #expect(first.stdoutText.contains(#""session":"abc""#), "\(first.stdoutText)")
        let written = try String(contentsOfFile: jar, encoding: .utf8)
        #expect(written.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(written.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tabc"), "\(written)")

        let second = try await CourierToolProcess.run(["request", "--transport", transport, "-c", jar, server.url("/cookies").absoluteString])
        #expect(second.status == 0, "\(second.stderrText)")
        #expect(second.stdoutText.contains(#""session":"abc""#), "\(second.stdoutText)")
    }

    @Test func aMalformedJarLineIsSkippedWithAWarning() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let jar = temporaryPath(".cookies")
        defer { try? FileManager.default.removeItem(atPath: jar) }
        try "# Netscape HTTP Cookie File\nnot a cookie line\n127.0.0.1\tFALSE\t/\tFALSE\t0\tkept\tyes\n".write(toFile: jar, atomically: true, encoding: .utf8)
        let result = try await CourierToolProcess.run(["request", "--cookie-jar", jar, server.url("/cookies").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix("courier: warning: \(jar):2: "), "\(result.stderrText)")
        #expect(result.stdoutText.contains(#""kept":"yes""#), "\(result.stdoutText)")
    }
}
