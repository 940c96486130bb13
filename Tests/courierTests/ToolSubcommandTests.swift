import CourierTestServer
import CourierTestSupport
import Foundation
import Testing

/// `courier parity`, `bench` and `demo` run as subprocesses.
@Suite struct ToolSubcommandTests {
    @Test func parityPrintsATableOfAgreement() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".urls")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let fromFile = [server.url("/status/404").absoluteString, server.url("/gzip").absoluteString]
        try ("# comment\n" + fromFile.joined(separator: "\n") + "\n\n").write(toFile: path, atomically: true, encoding: .utf8)
        let url = server.url("/get?a=1").absoluteString
        let result = try await CourierToolProcess.run(["parity", url, "--file", path])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        #expect(lines.first?.hasPrefix("URL") == true)
        for expected in [url] + fromFile {
            #expect(lines.contains { $0.hasPrefix(expected) && $0.hasSuffix("agree") }, "\(expected) in \(result.stdoutText)")
        }
        #expect(lines.last == "3 of 3 agree")
    }

    @Test func parityNeedsAURL() async throws {
        let result = try await CourierToolProcess.run(["parity"])
        #expect(result.status == 64)
    }

    @Test func benchPrintsOneRowPerTransport() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["bench", "--requests", "300", "--concurrency", "8", server.url("/bytes/100").absoluteString])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
        let lines = result.stdoutText.split(separator: "\n")
        let header = try #require(lines.first { $0.hasPrefix("transport") })
        for column in ["req/s", "MB/s", "p50 ms", "p90 ms", "p99 ms", "max ms"] {
            #expect(header.contains(column))
        }
        for transport in ["URLSession", "curl"] {
            let row = try #require(lines.first { $0.hasPrefix(transport + " ") }, "\(result.stdoutText)")
            let cells = row.split(separator: " ")
            #expect(cells.count == 9)
            #expect(cells.dropFirst().first == "300", "exactly --requests were measured")
            #expect(cells.dropFirst(2).first == "0", "no errors")
        }
    }

    @Test func benchForADurationOnOneTransport() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["bench", "--transport", "curl", "--duration", "0.5", server.url("/bytes/13").absoluteString])
        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.split(separator: "\n").contains { $0.hasPrefix("curl ") })
        #expect(!result.stdoutText.contains("URLSession"))
    }

    @Test func benchCountsErrorStatusesAndExitsOne() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let result = try await CourierToolProcess.run(["bench", "--transport", "urlsession", "--requests", "20", server.url("/status/500").absoluteString])
        #expect(result.status == 1)
        #expect(result.stderrText.contains("HTTP 500"))
    }

    @Test func benchRejectsRequestsAndDurationTogether() async throws {
        let result = try await CourierToolProcess.run(["bench", "--requests", "5", "--duration", "1", "http://127.0.0.1:1/"])
        #expect(result.status == 64)
    }

    @Test func demoBehavesAsDescribed() async throws {
        let start = ContinuousClock.now
        let result = try await CourierToolProcess.run(["demo"])
        #expect(result.status == 0, "\(result.stdoutText)\(result.stderrText)")
        #expect(result.stdoutText.contains("URLSession transport"))
        #expect(result.stdoutText.contains("curl transport"))
        #expect(result.stdoutText.contains("steps behaved as described"))
        #expect(!result.stdoutText.contains("\u{1B}["), "no colour when stdout is not a terminal")
        // The demo's steps take a second or two; a step that waited out a server instead of its
        // own timeout would take far longer. A bound on time, so off the sanitizers.
        if !TestRun.isSanitized {
            #expect(start.duration(to: .now) < .seconds(60))
        }
    }
}
