#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierLogging
import CourierObservabilityTestSupport
import CourierTestServer
import Foundation
import Logging
import Testing

/// A retried request is still one line, which counts its attempts.
@Suite struct LoggingLayerRetryTests {
    private static var retrying: Policies {
        var policies = Policies()
        policies.retries = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, jitter: 0)
        return policies
    }

    @Test(arguments: Engine.allCases)
    func aRetriedResponseIsOneLineWithItsAttempts(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        try await engine.withExchange(policies: Self.retrying) { server, exchange in
            _ = try await layered(exchange, [logging(to: logger)])(URLRequest(url: server.url("/flaky/log/2")))
        }
        let entry = try #require(store.entries.first)
        #expect(store.entries.count == 1)
        #expect(entry["http.response.status_code"] == "200")
        #expect(entry["attempts"] == "3")
    }

    @Test(arguments: Engine.allCases)
    func aFirstAttemptThatAnswersHasNoAttemptsField(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        try await engine.withExchange(policies: Self.retrying) { server, exchange in
            _ = try await layered(exchange, [logging(to: logger)])(URLRequest(url: server.url("/get")))
        }
        let entry = try #require(store.entries.first)
        #expect(entry["attempts"] == nil)
    }

    @Test(arguments: Engine.allCases)
    func aFailureAfterRetriesCountsItsAttemptsInTheLineAndTheMessage(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange(policies: Self.retrying) { _, exchange in
            await #expect(throws: URLError.self) {
                try await layered(exchange, [logging(to: logger)])(URLRequest(url: refusing.url("/get")))
            }
        }
        try await refusing.close()
        let entry = try #require(store.entries.first)
        #expect(store.entries.count == 1)
        #expect(entry["attempts"] == "3")
        let message = try #require(entry["error.message"])
        #expect(message.hasPrefix("could not connect to the server"), "\(message)")
        #expect(message.contains(", after 3 attempts"), "\(message)")
    }
}
