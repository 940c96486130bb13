import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier request` exits with curl's code for each failure, provoked on loopback, on both
/// transports where each can express it (the refused connection, the timeout and --max-filesize
/// are in RequestCommandTests and RequestOutputTests).
@Suite(.serialized) struct RequestExitCodeTests {
    static let transports = ["curl", "urlsession"]

    private func run(_ transport: String, _ arguments: [String]) async throws -> CourierToolProcess.Outcome {
        try await CourierToolProcess.run(["request", "--transport", transport] + arguments)
    }

    /// RFC 6761: a name under .invalid is never resolved, so this reaches no network.
    @Test(arguments: transports)
    func anUnresolvableHostExitsSix(transport: String) async throws {
        let result = try await run(transport, ["http://courier-exit-codes.invalid/get"])
        #expect(result.status == 6, "\(result.stderrText)")
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
    }

    @Test(arguments: transports)
    func aRedirectLoopPastMaxRedirectsExitsFortySeven(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, ["--max-redirects", "3", server.url("/redirect-loop").absoluteString])
        #expect(result.status == 47, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
        #expect(server.requestCount == 4, "the first request and three redirects")
    }

    @Test(arguments: transports)
    func aStallPastTheTimeoutExitsTwentyEight(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, ["--timeout", "0.5", server.url("/stall/1").absoluteString])
        #expect(result.status == 28, "\(result.stderrText)")
    }

    @Test(arguments: transports)
    func aReplyOverMaxFilesizeExitsSixtyThree(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, ["--max-filesize", "1000", server.url("/bytes/4000").absoluteString])
        #expect(result.status == 63, "\(result.stderrText)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: transports)
    func aConnectionClosedWithoutAReplyExitsFiftyTwo(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, [server.url("/close").absoluteString])
        #expect(result.status == 52, "\(result.stderrText)")
    }

    /// libcurl tells a body cut short (18) from a lost connection; URLSession does not (56).
    @Test(arguments: transports)
    func aBodyCutShortExitsEighteenOnCurlAndFiftySixOnURLSession(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, [server.url("/truncate/1000").absoluteString])
        #expect(result.status == (transport == "curl" ? 18 : 56), "\(result.stderrText)")
    }

    /// A reply that is not HTTP: libcurl's and curl's 1 ("Received HTTP/0.9 when not allowed");
    /// URLSession reports it as it reports an empty reply, 52.
    @Test(arguments: transports)
    func aReplyThatIsNotHTTPExitsOneOnCurlAndFiftyTwoOnURLSession(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, [server.url("/status-line/ssh-banner").absoluteString])
        #expect(result.status == (transport == "curl" ? 1 : 52), "\(result.stderrText)")
    }

    /// Proxies are the curl transport's; a proxy's name under .invalid is never resolved.
    @Test func anUnresolvableProxyExitsFive() async throws {
        let result = try await run("curl", ["-x", "http://courier-exit-codes.invalid:3128", "http://127.0.0.1:1/get"])
        #expect(result.status == 5, "\(result.stderrText)")
    }

    /// TLS spoken to a port that answers plain HTTP.
    @Test(arguments: transports)
    func tlsToAPlainHTTPPortExitsThirtyFive(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await run(transport, ["https://127.0.0.1:\(server.port)/get"])
        #expect(result.status == 35, "\(result.stderrText)")
    }

    @Test(arguments: transports)
    func anUntrustedCertificateExitsSixty(transport: String) async throws {
        try await withHTTPSServer(.caSigned) { server, _ in
            let result = try await run(transport, [server.url("/get").absoluteString])
            #expect(result.status == 60, "\(result.stderrText)")
        }
    }

    /// Client certificates are the curl transport's; URLSession refuses --cert with 4 before
    /// anything is sent (RequestHTTPVersionAndTLSTests). The transport is never made, so no
    /// connection is opened.
    @Test func aMissingCertificateOrKeyFileExitsFiftyEightBeforeAnythingIsSent() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let url = server.url("/get").absoluteString
            let missing = files.directory.appendingPathComponent("missing.pem").path
            let certificate = try await run("curl", ["--cacert", files.caBundlePath, "--cert", missing, url])
            #expect(certificate.status == 58, "\(certificate.stderrText)")
            #expect(certificate.stderrLines.count == 1, "\(certificate.stderrText)")
            #expect(certificate.stderrText.contains("the client certificate \(missing) does not exist"), "\(certificate.stderrText)")
            let key = try await run("curl", ["--cacert", files.caBundlePath, "--cert", files.clientCertificatePath, "--key", missing, "--pass", "s3cret", url])
            #expect(key.status == 58, "\(key.stderrText)")
            #expect(key.stderrText.contains("the client certificate's private key \(missing) does not exist"), "\(key.stderrText)")
            #expect(!key.stderrText.contains("s3cret"))
        }
    }
}
