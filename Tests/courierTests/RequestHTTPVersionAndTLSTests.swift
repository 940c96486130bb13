import CourierCurl
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import courier

/// `courier request`'s curl flags for HTTP versions and TLS, against nginx speaking h2 and h2c
/// in front of the test server and the python HTTPS server that can demand a client
/// certificate; and their refusal on URLSession, before anything is sent.
/// One test at a time: each makes certificates and starts servers, and all at once they took
/// the CPU from other suites' tests that time what they wait for.
@Suite(.serialized) struct RequestHTTPVersionAndTLSTests {
    /// The `-i` status line of `arguments` (curl transport), or an issue when it failed.
    private func statusLine(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async -> String? {
        do {
            let result = try await CourierToolProcess.run(["request", "-i", "--transport", "curl"] + arguments)
            #expect(result.status == 0, "\(result.stderrText)", sourceLocation: sourceLocation)
            return result.stdoutText.components(separatedBy: "\r\n").first
        } catch {
            Issue.record("courier did not run: \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func withProxy(_ body: (HTTP2TestProxy, TLSTestFiles) async throws -> Void) async throws {
        let server = try await TestServer.start()
        do {
            try await withHTTP2Proxy(upstreamPort: server.port, body)
        } catch {
            try? await server.shutdown()
            throw error
        }
        try await server.shutdown()
    }

    @Test func includeWritesTheVersionSpoken() async throws {
        try await withProxy { proxy, files in
            let url = proxy.tlsURL("/get").absoluteString
            #expect(await statusLine(["--cacert", files.caBundlePath, url]) == "HTTP/2 200")
            #expect(await statusLine(["--http2", "--cacert", files.caBundlePath, url]) == "HTTP/2 200")
            #expect(await statusLine(["--http1.1", "--cacert", files.caBundlePath, url]) == "HTTP/1.1 200 OK")
            // The last version flag wins, as with curl.
            #expect(await statusLine(["--http1.1", "--http2", "--cacert", files.caBundlePath, url]) == "HTTP/2 200")
            #expect(await statusLine(["--http2-prior-knowledge", proxy.cleartextURL("/get").absoluteString]) == "HTTP/2 200")
            #expect(await statusLine(["--capath", files.caDirectoryPath, url]) == "HTTP/2 200")
        }
    }

    @Test func writeOutReportsTheVersion() async throws {
        try await withProxy { proxy, files in
            let result = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--cacert", files.caBundlePath, "-o", "/dev/null", "-w", "%{http_version}",
                proxy.tlsURL("/get").absoluteString,
            ])
            #expect(result.status == 0, "\(result.stderrText)")
            let held = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--cacert", files.caBundlePath, "-w", "\n%{http_version}", proxy.tlsURL("/bytes/4").absoluteString,
            ])
            #expect(held.stdoutText.hasSuffix("\n2"), "\(held.stdoutText)")
        }
    }

    @Test func aClientCertificateWithItsPassphraseInTheCertArgument() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let url = server.url("/get").absoluteString
            let good = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--cacert", files.caBundlePath,
                "--cert", "\(files.clientCertificatePath):\(files.clientKeyPassphrase)", "--key", files.encryptedClientKeyPath, url,
            ])
            #expect(good.status == 0, "\(good.stderrText)")
            #expect(good.stdoutText.contains("\"tls\""))
            let separate = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--cacert", files.caBundlePath, "--cert", files.clientCertificatePath,
                "--key", files.encryptedClientKeyPath, "--pass", files.clientKeyPassphrase, url,
            ])
            #expect(separate.status == 0, "\(separate.stderrText)")
            let wrong = try await CourierToolProcess.run([
                "request", "--transport", "curl", "--cacert", files.caBundlePath, "--cert", files.clientCertificatePath,
                "--key", files.encryptedClientKeyPath, "--pass", "wrong-phrase", url,
            ])
            #expect(wrong.status == 58)
            #expect(wrong.stderrText.contains("the client certificate's private key \(files.encryptedClientKeyPath) cannot be used"), "\(wrong.stderrText)")
            #expect(!wrong.stderrText.contains("wrong-phrase"))
            let none = try await CourierToolProcess.run(["request", "--transport", "curl", "--cacert", files.caBundlePath, url])
            // The server's TLS 1.3 alert arrives on the first read: libcurl's, and curl's, 56.
            #expect(none.status == 56, "\(none.stderrText)")
            #expect(none.stderrText.contains("requires a client certificate"), "\(none.stderrText)")
        }
    }

    @Test func pinnedKeyAndTLSFloor() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(maximumTLSVersion: "1.2")) { server, files in
            let url = server.url("/get").absoluteString
            let base = ["request", "--transport", "curl", "--cacert", files.caBundlePath]
            let pinned = try await CourierToolProcess.run(base + ["--pinnedpubkey", try files.pinnedPublicKey(of: .caSigned), url])
            #expect(pinned.status == 0, "\(pinned.stderrText)")
            let wrong = try await CourierToolProcess.run(base + ["--pinnedpubkey", try files.pinnedPublicKey(of: .otherName), url])
            #expect(wrong.status == 90)
            #expect(wrong.stderrText.contains("pinned"), "\(wrong.stderrText)")
            let allowed = try await CourierToolProcess.run(base + ["--tlsv1.2", url])
            #expect(allowed.status == 0, "\(allowed.stderrText)")
            let floor = try await CourierToolProcess.run(base + ["--tlsv1.3", url])
            #expect(floor.status == 35)
            #expect(floor.stderrText.contains("TLS version"), "\(floor.stderrText)")
        }
    }

    @Test func insecureSaysSoOnStderr() async throws {
        try await withHTTPSServer(.selfSigned) { server, _ in
            let url = server.url("/get").absoluteString
            let refused = try await CourierToolProcess.run(["request", "--transport", "curl", url])
            #expect(refused.status == 60)
            let result = try await CourierToolProcess.run(["request", "--transport", "curl", "-k", url])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stderrText.contains("--insecure: the server's certificate and host name are not verified"))
        }
    }

    static let refusedOnURLSession: [(arguments: [String], message: String)] = [
        (["--http2-prior-knowledge"], "URLSessionTransport cannot speak HTTP/2 with prior knowledge (h2c) (--http2-prior-knowledge)"),
        (["--http1.1"], "URLSessionTransport cannot limit itself to HTTP/1.1 (--http1.1)"),
        (["--cert", "/nonexistent/client.pem:secret"], "URLSessionTransport cannot present a client certificate (--cert)"),
        (["--pinnedpubkey", "sha256//AAAA"], "URLSessionTransport cannot pin the server's public key (--pinnedpubkey)"),
        (["--tlsv1.3"], "URLSessionTransport cannot require TLS 1.3 (--tlsv1.3)"),
        (["--cacert", "/nonexistent/ca.pem"], "URLSessionTransport cannot trust a CA bundle of the caller's (--cacert)"),
        (["-k"], "URLSessionTransport cannot skip verifying the server's certificate (--insecure)"),
        (["--http3"], "URLSessionTransport cannot speak HTTP/3 (--http3)"),
        (["--http3-only"], "URLSessionTransport cannot speak HTTP/3 only (--http3-only)"),
        (["--alt-svc", "/nonexistent/alt-svc.txt"], "URLSessionTransport cannot keep an Alt-Svc cache (--alt-svc)"),
    ]

    @Test(arguments: 0..<refusedOnURLSession.count)
    func aCurlOnlyFlagIsRefusedOnURLSessionBeforeAnythingIsSent(_ index: Int) async throws {
        let (arguments, message) = Self.refusedOnURLSession[index]
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", "urlsession"] + arguments + [server.url("/get").absoluteString])
        #expect(result.status == 4)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText.contains(message), "\(result.stderrText)")
        #expect(!result.stderrText.contains("secret"))
        #expect(server.requestCount == 0)
    }

    /// On a libcurl without HTTP/3 (the system's 7.88), the curl transport refuses `--http3`
    /// and `--http3-only` as curl does, exit 4, naming HTTP/3, with nothing sent.
    @Test(.enabled(if: !((try? CurlTransport())?.capabilities.speaksHTTP3 ?? true)), arguments: ["--http3", "--http3-only"])
    func http3IsRefusedWhereLibcurlLacksIt(_ flag: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["request", "--transport", "curl", flag, server.url("/get").absoluteString])
        #expect(result.status == 4)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrText.contains("cannot speak HTTP/3"), "\(result.stderrText)")
        #expect(result.stderrText.contains("built without HTTP/3"), "\(result.stderrText)")
        #expect(server.requestCount == 0)
    }

    @Test func theLastVersionFlagWinsAndHTTP3MapsToCurlsPreferences() throws {
        let cases: [([String], CurlTransport.HTTPVersionPreference)] = [
            (["--http3"], .http3), (["--http3-only"], .http3Only), (["--http3", "--http2"], .automatic),
            (["--http2-prior-knowledge", "--http3-only"], .http3Only),
        ]
        for (arguments, version) in cases {
            let options = try HTTPVersionAndTLSOptions.parse(arguments)
            #expect(options.curlConfiguration().httpVersion == version, "\(arguments)")
        }
        let cached = try HTTPVersionAndTLSOptions.parse(["--alt-svc", "/tmp/alt-svc.txt"])
        #expect(cached.curlConfiguration().altSvcCache == .file("/tmp/alt-svc.txt"))
        #expect(try HTTPVersionAndTLSOptions.parse([]).curlConfiguration().altSvcCache == .off)
    }

    /// `-w '%{http_version}'` writes 3 for HTTP/3, as curl does.
    @Test func writeOutWritesThreeForHTTP3() {
        var values = WriteOut.Values()
        values.httpVersion = "HTTP/3"
        #expect(WriteOut.value(of: "http_version", in: values) == "3")
    }

    @Test func aKeyWithoutACertificateIsAUsageError() async throws {
        let result = try await CourierToolProcess.run(["request", "--key", "/k.pem", "http://127.0.0.1:9/"])
        #expect(result.status == 64)
        #expect(result.stderrText.contains("--key needs --cert"), "\(result.stderrText)")
    }

    @Test(arguments: [
        ("client.pem", "client.pem", nil),
        ("client.pem:s3cret", "client.pem", "s3cret"),
        ("client.pem:pass:with:colons", "client.pem", "pass:with:colons"),
        (#"c\:drive.pem:pw"#, "c:drive.pem", "pw"),
        (#"back\\slash.pem"#, #"back\slash.pem"#, nil),
        (#"other\escape.pem"#, #"other\escape.pem"#, nil),
        ("client.pem:", "client.pem", ""),
    ] as [(String, String, String?)])
    func theCertArgumentSplitsAsCurlDoes(argument: String, path: String, passphrase: String?) {
        #expect(ClientCertificateArgument(argument) == ClientCertificateArgument(path: path, passphrase: passphrase))
    }
}
