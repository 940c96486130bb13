import Foundation
import Testing

/// Usage errors and help, for every subcommand.
@Suite struct ToolUsageTests {
    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        var environment: [String: String] = [:]
        /// The start of the one line on stderr; all of it unless the rest is Foundation's wording.
        var line: String

        var testDescription: String {
            (environment.map { "\($0)=\($1) " }.joined() + "courier " + arguments.joined(separator: " "))
        }
    }

    static let url = "http://127.0.0.1:1/"

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["request", "--bogus", url], line: "courier: Unknown option '--bogus'"),
        UsageCase(arguments: ["request"], line: "courier: Missing expected argument '<url> ...'"),
        UsageCase(
            arguments: ["request", "--transport", "pigeon", url],
            line: "courier: The value 'pigeon' is invalid for '--transport <transport>'. Please provide one of 'urlsession' and 'curl'."
        ),
        UsageCase(
            arguments: ["request", url], environment: ["COURIER_TRANSPORT": "pigeon"],
            line: #"courier: COURIER_TRANSPORT="pigeon" is not a transport; accepted values: urlsession, curl (unset means urlsession)"#
        ),
        UsageCase(arguments: ["request", "-d", "a=1", "--json", "{}", url], line: "courier: give -d or --json, not both"),
        UsageCase(
            arguments: ["request", "-H", "X-Tag", url],
            line: #"courier: header "X-Tag" needs the form 'Name: value', 'Name;' for an empty value or 'Name:' to drop it"#
        ),
        UsageCase(arguments: ["request", "-H", ": value", url], line: #"courier: header ": value" has no name"#),
        UsageCase(arguments: ["request", "--timeout", "soon", url], line: "courier: The value 'soon' is invalid for '--timeout <timeout>'"),
        UsageCase(arguments: ["ws"], line: "courier: Missing expected argument '<url>'"),
        UsageCase(
            arguments: ["ws", "-H", "X-Tag", "ws://127.0.0.1:1/"],
            line: #"courier: header "X-Tag" needs the form 'Name: value', 'Name;' for an empty value or 'Name:' to drop it"#
        ),
        UsageCase(arguments: ["parity"], line: "courier: give at least one URL or --file FILE"),
        UsageCase(arguments: ["parity", "--file", "/nonexistent/urls"], line: "courier: cannot read --file /nonexistent/urls: "),
        UsageCase(arguments: ["bench", "--requests", "5", "--duration", "1", url], line: "courier: give --requests or --duration, not both"),
        UsageCase(arguments: ["demo", "extra"], line: "courier: Unexpected argument 'extra'"),
    ]

    @Test(arguments: usageCases)
    func usageErrorIsOneLineAndExitsSixtyFour(_ usage: UsageCase) async throws {
        let result = try await CourierToolProcess.run(usage.arguments, environment: usage.environment)
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.hasPrefix(usage.line), "\(result.stderrText)")
        #expect(result.stderrText.hasSuffix("\n"))
    }

    @Test(arguments: [["--help"], ["request", "--help"], ["help", "request"], ["bench", "-h"], ["help", "ws"]])
    func helpGoesToStdoutAndExitsZero(_ arguments: [String]) async throws {
        let result = try await CourierToolProcess.run(arguments)
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdoutText.hasPrefix("OVERVIEW: "))
        #expect(result.stdoutText.contains("USAGE: courier"))
    }

    @Test func requestHelpListsEveryExitCode() async throws {
        let result = try await CourierToolProcess.run(["request", "--help"])
        // Every code CurlExitCode gives, and the ones the command gives itself.
        let given = CurlExitCodeTests.urlErrors.map(\.1) + [0, 3, 4, 22, 23, 26, 58, 64]
        for code in Set(given).map(String.init) {
            #expect(result.stdoutText.contains("\n  \(code) "), "exit code \(code) in \(result.stdoutText)")
        }
    }

    @Test func wsHelpListsItsExitCodes() async throws {
        let result = try await CourierToolProcess.run(["ws", "--help"])
        for code in [0, 1, 3, 4, 5, 6, 7, 22, 23, 26, 28, 35, 52, 56, 58, 60, 63, 64, 76, 97].map(String.init) {
            #expect(result.stdoutText.contains("\n  \(code) "), "exit code \(code) in \(result.stdoutText)")
        }
        #expect(!result.stdoutText.contains("--http2"), "a WebSocket's handshake is HTTP/1.1 only")
    }

    @Test func theToolListsWs() async throws {
        let result = try await CourierToolProcess.run(["--help"])
        #expect(result.stdoutText.contains("\n  ws "), "\(result.stdoutText)")
    }
}
