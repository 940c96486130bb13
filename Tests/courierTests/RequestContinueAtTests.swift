import CourierTestServer
import Foundation
import Testing

/// `courier request -C/--continue-at … -o FILE`: curl's resumed download, against the test
/// server's ranged routes, on both transports.
@Suite struct RequestContinueAtTests {
    static let transports = ["curl", "urlsession"]
    private static let count = 3_000_000

    private func fileBytes(_ path: String) -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }

    @Test(arguments: transports)
    func aCutDownloadResumedWithADashHoldsExactlyTheBody(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cut = try await CourierToolProcess.run(["request", "--transport", transport, "-o", path, server.url("/range/\(Self.count)?seed=11&cut_at=1200000").absoluteString])
        #expect(cut.status != 0)
        let kept = fileBytes(path).count
        #expect(kept > 0 && kept <= 1_200_000)
        let url = server.url("/range/\(Self.count)?seed=11").absoluteString
        let resumed = try await CourierToolProcess.run(["request", "--transport", transport, "-C", "-", "-o", path, "-w", "%{http_code}", url])
        #expect(resumed.status == 0, "\(resumed.stderrText)")
        #expect(resumed.stdoutText == "206")
        #expect(server.lastRequest?.value(for: "Range") == "bytes=\(kept)-")
        #expect(server.lastRequest?.value(for: "If-Range") == nil)
        #expect(fileBytes(path) == TestServer.deterministicBytes(count: Self.count, seed: 11))
    }

    @Test(arguments: transports)
    func aNumberResumesAtThatOffsetAndADashWithoutAFileStartsAtZero(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let url = server.url("/range/100000?seed=12").absoluteString
        let fresh = try await CourierToolProcess.run(["request", "--transport", transport, "--continue-at", "-", "-o", path, url])
        #expect(fresh.status == 0, "\(fresh.stderrText)")
        #expect(server.lastRequest?.value(for: "Range") == nil)
        let body = TestServer.deterministicBytes(count: 100_000, seed: 12)
        #expect(fileBytes(path) == body)
        try body.prefix(40000).write(to: URL(fileURLWithPath: path))
        let resumed = try await CourierToolProcess.run(["request", "--transport", transport, "-C", "40000", "-o", path, url])
        #expect(resumed.status == 0, "\(resumed.stderrText)")
        #expect(server.lastRequest?.value(for: "Range") == "bytes=40000-")
        #expect(fileBytes(path) == body)
    }

    @Test(arguments: transports)
    func aWholeBodyForARangeExitsThirtyThreeAndLeavesTheFile(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let partial = Data(repeating: 7, count: 1000)
        for query in ["ignore_range=1", "misplace=1"] {
            try partial.write(to: URL(fileURLWithPath: path))
            let url = server.url("/range/4000?\(query)").absoluteString
            let result = try await CourierToolProcess.run(["request", "--transport", transport, "-C", "-", "-o", path, url])
            #expect(result.status == 33, "\(query): \(result.stderrText)")
            #expect(result.stderrLines.count == 1)
            #expect(result.stderrText.hasPrefix("courier: GET \(url): HTTP server doesn't seem to support byte ranges. Cannot resume."))
            #expect(fileBytes(path) == partial, "\(query)")
        }
    }

    @Test(arguments: transports)
    func a416LeavesTheFileAndExitsZeroEvenWithFail(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let path = temporaryPath(".bin")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let body = TestServer.deterministicBytes(count: 4000, seed: 13)
        try body.write(to: URL(fileURLWithPath: path))
        let url = server.url("/range/4000?seed=13").absoluteString
        for flags in [[], ["--fail"]] {
            let result = try await CourierToolProcess.run(["request", "--transport", transport, "-C", "-", "-o", path, "-w", "%{http_code}"] + flags + [url])
            #expect(result.status == 0, "\(flags): \(result.stderrText)")
            #expect(result.stdoutText == "416")
            #expect(fileBytes(path) == body)
        }
    }

    @Test(arguments: [
        ["-C", "-", "http://127.0.0.1:9/"], ["-C", "-", "-o", "-", "http://127.0.0.1:9/"],
        ["-C", "ten", "-o", "/tmp/x", "http://127.0.0.1:9/"], ["--continue-at=-5", "-o", "/tmp/x", "http://127.0.0.1:9/"],
    ])
    func aContinueWithoutAFileOrANumberIsAUsageError(arguments: [String]) async throws {
        let result = try await CourierToolProcess.run(["request"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderrText.contains("-C/--continue-at"), "\(result.stderrText)")
    }
}
