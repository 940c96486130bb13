import Configuration
import Courier
import CourierConfiguration
import CourierCurl
import Foundation
import Testing

/// README.md's "configure by ConfigReader" snippet, byte for byte between the marks (hence flush
/// left), so that the README shows code that compiles; `theReadmeShowsThisSnippet` keeps the two
/// the same.
func networkingConfiguredAsTheReadmeShows() async throws -> Networking {
// README snippet begins
// COURIER_TRANSPORT=curl, COURIER_REDIRECTS_MAXIMUM=5, … or in courier.json:
// { "courier": { "transport": "curl", "redirects": { "maximum": 5 } } }
let config = ConfigReader(providers: [
    EnvironmentVariablesProvider(),
    try await FileProvider<JSONSnapshot>(filePath: "courier.json", allowMissing: true),
])
let networking = try Transport.makeNetworking(config: config.scoped(to: "courier"))
// README snippet ends
    return networking
}

@Suite struct ReadmeSnippetTests {
    /// Runs it too: with no courier.json where the tests run, it reads the process's own
    /// `COURIER_TRANSPORT`, which scripts/test sets to each transport in turn.
    @Test func theReadmeSnippetBuildsANetworking() async throws {
        _ = try await networkingConfiguredAsTheReadmeShows()
    }

    @Test func theReadmeShowsThisSnippet() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let snippet = source.components(separatedBy: "// README snippet begins\n").dropFirst().first?
            .components(separatedBy: "// README snippet ends\n").first
        let block = try #require(snippet)
        #expect(readme.contains("```swift\n" + block + "```\n"))
    }
}
