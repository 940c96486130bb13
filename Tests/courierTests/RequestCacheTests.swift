import CourierTestServer
import Foundation
import Testing
@testable import courier

/// `courier request --cache DIR`: one run answers from what an earlier run kept in DIR, on both
/// transports, and `%{response_source}` says where each answer came from.
@Suite struct RequestCacheTests {
    static let transports = ["curl", "urlsession"]

    /// Runs `courier request` with `--cache directory` and `-w` writing the source after the body.
    private func request(
        _ url: URL, cache directory: String, transport: String, _ extra: [String] = []
    ) async throws -> (body: String, source: String) {
        let result = try await CourierToolProcess.run(
            ["request", "--transport", transport, "--cache", directory, "-w", "|%{response_source}"] + extra + [url.absoluteString]
        )
        #expect(result.status == 0, "\(result.stderrText)")
        let parts = result.stdoutText.split(separator: "|", omittingEmptySubsequences: false)
        return (String(parts.first ?? ""), String(parts.last ?? ""))
    }

    @Test(arguments: transports)
    func aLaterRunAnswersAFreshResponseFromTheDirectory(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = temporaryPath("-cache")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = server.url("/cache/fresh?cc=max-age%3D600")

        let first = try await request(url, cache: directory, transport: transport)
        let second = try await request(url, cache: directory, transport: transport)

        #expect(first.body == "visit 1 of fresh")
        #expect(first.source == "network")
        #expect(second.body == "visit 1 of fresh")
        #expect(second.source == "cache")
        #expect(server.visits("cache-fresh") == 1)
    }

    /// The directory is the engines' common ground: what one engine kept, the other answers.
    @Test func oneEngineAnswersWhatTheOtherKept() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = temporaryPath("-cache")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = server.url("/cache/shared?cc=max-age%3D600")

        _ = try await request(url, cache: directory, transport: "curl")
        let second = try await request(url, cache: directory, transport: "urlsession")

        #expect(second.body == "visit 1 of shared")
        #expect(second.source == "cache")
        #expect(server.visits("cache-shared") == 1)
    }

    @Test(arguments: transports)
    func aResponseThatMustBeRevalidatedIsAskedAboutWithItsETag(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let directory = temporaryPath("-cache")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let url = server.url("/cache/validated?cc=no-cache&etag=v1")

        _ = try await request(url, cache: directory, transport: transport)
        let result = try await CourierToolProcess.run(
            ["request", "--transport", transport, "--cache", directory, "-i", "-w", "|%{response_source}", url.absoluteString]
        )

        #expect(result.status == 0, "\(result.stderrText)")
        #expect(result.stdoutText.hasSuffix("\r\n\r\nvisit 1 of validated|revalidated"), "\(result.stdoutText)")
        // The 304's fields freshen the stored head: the second visit, and the tag it was asked with.
        #expect(result.stdoutText.lowercased().contains("x-visit: 2\r\n"), "\(result.stdoutText)")
        #expect(result.stdoutText.lowercased().contains("x-seen-if-none-match: \"v1\"\r\n"), "\(result.stdoutText)")
        #expect(server.visits("cache-validated") == 2)
    }

    @Test(arguments: transports)
    func withoutTheOptionEveryRunGoesToTheServer(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let url = server.url("/cache/uncached?cc=max-age%3D600").absoluteString

        for _ in 0..<2 {
            let result = try await CourierToolProcess.run(["request", "--transport", transport, "-w", "|%{response_source}", url])
            #expect(result.status == 0, "\(result.stderrText)")
            #expect(result.stdoutText.hasSuffix("|network"), "\(result.stdoutText)")
        }
        #expect(server.visits("cache-uncached") == 2)
    }

    /// A response with only `Last-Modified` is revalidated every time unless heuristics are on;
    /// with them it is fresh for a tenth of its age, years for the route's date in 2000.
    @Test(arguments: transports)
    func heuristicFreshnessIsOffUnlessAskedFor(transport: String) async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let plain = temporaryPath("-cache")
        let heuristic = temporaryPath("-cache")
        defer {
            try? FileManager.default.removeItem(atPath: plain)
            try? FileManager.default.removeItem(atPath: heuristic)
        }

        let withoutURL = server.url("/cache/without?last_modified=1")
        _ = try await request(withoutURL, cache: plain, transport: transport)
        let without = try await request(withoutURL, cache: plain, transport: transport)
        let withURL = server.url("/cache/with?last_modified=1")
        _ = try await request(withURL, cache: heuristic, transport: transport, ["--cache-heuristics"])
        let with = try await request(withURL, cache: heuristic, transport: transport, ["--cache-heuristics"])

        #expect(without.source == "revalidated")
        #expect(with.source == "cache")
        #expect(with.body == "visit 1 of with")
    }

    @Test func aDirectoryThatCannotBeMadeExits23BeforeSending() async throws {
        let server = try await TestServer.start()
        defer { Task { try? await server.shutdown() } }
        let file = temporaryPath("-not-a-directory")
        #expect(FileManager.default.createFile(atPath: file, contents: Data("x".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let url = server.url("/cache/refused?cc=max-age%3D600").absoluteString

        let result = try await CourierToolProcess.run(["request", "--cache", file + "/cache", url])

        #expect(result.status == 23)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1, "\(result.stderrText)")
        #expect(result.stderrText.contains("GET \(url): the cache directory \(file)/cache cannot be used"), "\(result.stderrText)")
        #expect(server.visits("cache-refused") == 0)
    }

    @Test(arguments: [
        (["--cache-heuristics"], "--cache-heuristics needs --cache DIR"),
        (["--cache", "/tmp/x", "--cache-max-bytes", "0"], "--cache-max-bytes must be more than 0"),
    ])
    func misusedOptionsAreUsageErrors(arguments: [String], message: String) async throws {
        let result = try await CourierToolProcess.run(["request"] + arguments + ["http://127.0.0.1:9/"])
        #expect(result.status == 64)
        #expect(result.stderrText.contains(message), "\(result.stderrText)")
    }
}
