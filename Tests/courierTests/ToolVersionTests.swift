import CourierTestServer
import Foundation
import Testing

/// `courier --version`, and the `User-Agent` the tool's requests name that version in.
@Suite struct ToolVersionTests {
    /// The version `courier --version` prints, `courier <version> (libcurl <version>)`.
    static func printedVersion() async throws -> String {
        let result = try await CourierToolProcess.run(["--version"])
        #expect(result.status == 0, "\(result.stderrText)")
        let words = result.stdoutText.split(separator: " ")
        #expect(words.count == 4 && words[0] == "courier" && words[2] == "(libcurl", "\(result.stdoutText)")
        return try #require(words.dropFirst().first.map(String.init))
    }

    @Test func versionIsThreeNumbers() async throws {
        let version = try await Self.printedVersion()
        let numbers = version.split(separator: ".", omittingEmptySubsequences: false)
        #expect(numbers.count == 3 && numbers.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }, "\(version)")
    }

    @Test(arguments: ["curl", "urlsession"])
    func requestsNameTheToolAndItsVersion(transport: String) async throws {
        let version = try await Self.printedVersion()
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/get").absoluteString
        let result = try await CourierToolProcess.run(["request", "--transport", transport, url])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(server.lastRequest?.value(for: "User-Agent") == "courier/\(version)")

        let own = try await CourierToolProcess.run(["request", "--transport", transport, "-H", "User-Agent: mine/1", url])
        #expect(own.status == 0, "\(own.stderrText)")
        #expect(server.lastRequest?.value(for: "User-Agent") == "mine/1")
    }
}
