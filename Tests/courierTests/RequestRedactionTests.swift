import CourierTestServer
import Foundation
import Testing

/// A password in the URL given to `courier request` never reaches stderr, nor does a query value
/// whose name says it is a secret: every line that names the URL writes them as `xxxxx`.
@Suite struct RequestRedactionTests {
    static let password = "s3cr3tpw"

    static func withCredentials(_ url: URL) throws -> String {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.user = "alice"
        components.password = password
        return try #require(components.url).absoluteString
    }

    static func expectRedacted(_ result: CourierToolProcess.Outcome, status: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == status, "\(result.stderrText)", sourceLocation: sourceLocation)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)", sourceLocation: sourceLocation)
        #expect(!result.stderrText.contains(password), "\(result.stderrText)", sourceLocation: sourceLocation)
        #expect(result.stderrText.contains("http://alice:xxxxx@127.0.0.1:"), "\(result.stderrText)", sourceLocation: sourceLocation)
    }

    @Test(arguments: ["curl", "urlsession"])
    func aTransportFailureNamesNoPassword(transport: String) async throws {
        let refusing = try await RefusingPort.open()
        let url = try Self.withCredentials(refusing.url("/"))
        let result = try await CourierToolProcess.run(["request", "--transport", transport, url])
        Self.expectRedacted(result, status: 7)
        #expect(result.stderrText.hasPrefix("courier: GET http://alice:xxxxx@127.0.0.1:"), "\(result.stderrText)")
        try await refusing.close()
    }

    @Test(arguments: ["curl", "urlsession"])
    func anErrorStatusUnderFailNamesNoPassword(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = try Self.withCredentials(server.url("/status/404"))
        Self.expectRedacted(try await CourierToolProcess.run(["request", "--transport", transport, "--fail", url]), status: 22)
    }

    @Test func theToolsOwnFailuresNameNoPassword() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = try Self.withCredentials(server.url("/bytes/10"))
        let missing = temporaryPath("/missing")
        Self.expectRedacted(try await CourierToolProcess.run(["request", "-d", "@\(missing)", url]), status: 26)
        Self.expectRedacted(try await CourierToolProcess.run(["request", "-o", missing, url]), status: 23)
        Self.expectRedacted(try await CourierToolProcess.run(["request", "-c", missing, url]), status: 23)
    }

    @Test(arguments: ["curl", "urlsession"])
    func aTransportFailureNamesNoQuerySecret(transport: String) async throws {
        let refusing = try await RefusingPort.open()
        let url = refusing.url("/x?token=t0k3n&api_key=k3y&page=2").absoluteString
        let result = try await CourierToolProcess.run(["request", "--transport", transport, url])
        #expect(result.status == 7, "\(result.stderrText)")
        #expect(!result.stderrText.contains("t0k3n") && !result.stderrText.contains("k3y"), "\(result.stderrText)")
        #expect(result.stderrText.contains("?token=xxxxx&api_key=xxxxx&page=2"), "\(result.stderrText)")
        try await refusing.close()
    }

    @Test func anInvalidURLNamesNoQuerySecret() async throws {
        let result = try await CourierToolProcess.run(["request", "ftp://127.0.0.1/x?token=t0k3n"])
        #expect(result.status == 1, "\(result.stderrText)")
        #expect(!result.stderrText.contains("t0k3n"), "\(result.stderrText)")
    }
}
