import Courier
import CourierParity
import Foundation
import Testing

struct Repo: Decodable, Sendable {
    let id: Int
    let name: String
}

extension Request where Response == [Repo] {
    static func repos(of user: String) -> Self { Request("users/\(user)/repos") }
}

extension Request where Response == Data {
    static let health = Request("health")
}

enum Production {
    static var policies: Policies {                     // the policies the app ships with
        var policies = Policies()
        policies.totalDeadline = 30
        policies.retries = .standard
        return policies
    }
}

// Runs when STAGING_URL names a server: STAGING_URL=https://staging.example.com/ swift test
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STAGING_URL"] != nil))
struct EngineParityTests {
    @Test func bothEnginesGiveTheSameAnswers() async throws {
        let staging = try #require(ProcessInfo.processInfo.environment["STAGING_URL"].flatMap(URL.init(string:)))
        let results = try await parityReport(
            for: .health, .repos(of: "apple"),          // typed requests, each sent once per engine
            baseURL: staging,
            policies: Production.policies
        )
        for result in results {
            #expect(result.transportsAgree, "\(result)")
        }
    }
}
