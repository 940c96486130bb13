#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierObservabilityTestSupport
import CourierLogging
import CourierTestServer
import Foundation
import Logging
import Testing

@Suite struct LoggingLayerTests {
    @Test(arguments: Engine.allCases)
    func oneLinePerExchangeCarriesTheResponseInItsMetadata(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let (data, url) = try await engine.withExchange { server, exchange in
            let url = server.url("/get?page=2")
            let (data, _) = try await layered(exchange, [logging(to: logger)])(URLRequest(url: url))
            return (data, url)
        }
        let entries = store.entries
        try #require(entries.count == 1)
        let entry = entries[0]
        #expect(entry.level == .debug)
        #expect(entry.message == "HTTP exchange")
        #expect(entry["http.request.method"] == "GET")
        #expect(entry["url.full"] == url.absoluteString)
        #expect(entry["http.response.status_code"] == "200")
        #expect(entry["http.response.body.size"] == String(data.count))
        #expect(entry["network.protocol.version"] == "1.1")
        #expect(entry["request_id"].map { !$0.isEmpty } == true)
        let duration = try #require(entry["duration_ms"].flatMap(Double.init))
        #expect(duration > 0)
        #expect(entry["error.message"] == nil)
    }

    @Test func theLevelIsTheCallersAndADisabledLevelLogsNothing() async throws {
        let (logger, store) = RecordingLogHandler.logger(level: .info)
        try await Engine.urlSession.withExchange { server, exchange in
            _ = try await layered(exchange, [logging(to: logger)])(URLRequest(url: server.url("/get")))
            _ = try await layered(exchange, [logging(to: logger, level: .notice)])(URLRequest(url: server.url("/get")))
        }
        #expect(store.entries.map(\.level) == [.notice])
    }

    @Test func theRequestIDIsTheRequestsOwnOrAFreshOne() async throws {
        let (logger, store) = RecordingLogHandler.logger()
        try await Engine.curl.withExchange { server, exchange in
            let logged = layered(exchange, [logging(to: logger)])
            var tagged = URLRequest(url: server.url("/get"))
            tagged.setValue("order-42", forHTTPHeaderField: "X-Request-ID")
            _ = try await logged(tagged)
            _ = try await logged(URLRequest(url: server.url("/get")))
            _ = try await logged(URLRequest(url: server.url("/get")))
        }
        let ids = store.entries.compactMap { $0["request_id"] }
        #expect(ids.count == 3)
        #expect(ids.first == "order-42")
        #expect(Set(ids).count == 3)
    }

    /// A layer below the logging one holds the failure for a second: a duration timed by the
    /// layer would count it, the engine's measure does not.
    @Test(arguments: Engine.allCases)
    func aFailureAfterTheExchangeStartedLogsWhatTheEngineMeasured(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let caught = StalledExchange.Caught()
        try await engine.withExchange { server, exchange in
            await #expect(throws: URLError.self) {
                try await layered(StalledExchange.failingLate(exchange, keepingIn: caught), [logging(to: logger)])(StalledExchange.request(on: server))
            }
        }
        let entry = try #require(store.entries.first)
        let measured = try caught.metrics
        #expect(entry["error.type"] == "URLError.timedOut")
        let total = try #require(measured.total)
        #expect(entry["duration_ms"] == String(format: "%.3f", Double(total.nanoseconds) / 1_000_000))
        #expect(entry["connection_reused"] == measured.connectionReused.map(String.init))
        if engine == .curl { #expect(entry["connection_reused"] == "false") }
    }

    @Test(arguments: Engine.allCases)
    func aFailureIsLoggedAboveTheLevelWithCouriersMessage(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange { _, exchange in
            await #expect(throws: URLError.self) {
                try await layered(exchange, [logging(to: logger)])(URLRequest(url: refusing.url("/get")))
            }
        }
        try await refusing.close()
        let entry = try #require(store.entries.first)
        #expect(store.entries.count == 1)
        #expect(entry.level == .info)
        #expect(entry.message == "HTTP exchange failed")
        #expect(entry["error.type"] == "URLError.cannotConnectToHost")
        let message = try #require(entry["error.message"])
        #expect(message.hasPrefix("could not connect to the server"), "\(message)")
        #expect(!message.contains("The operation could not be completed"))
        #expect(entry["http.response.status_code"] == nil)
    }

    @Test(arguments: Engine.allCases)
    func noPasswordOrQuerySecretReachesALine(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger()
        let refusing = try await RefusingPort.open()
        try await engine.withExchange { server, exchange in
            let logged = layered(exchange, [logging(to: logger, level: .trace)])
            _ = try await logged(URLRequest(url: try Secrets.url("/get", on: server)))
            _ = try? await logged(URLRequest(url: try Secrets.url("/get", port: refusing.port)))
        }
        try await refusing.close()
        let entries = store.entries
        #expect(entries.map(\.level) == [.trace, .debug])
        for entry in entries {
            for secret in Secrets.all {
                #expect(!entry.allText.contains(secret), "\(secret) in \(entry.allText)")
            }
            let url = try #require(entry["url.full"])
            #expect(url.contains("alice:xxxxx@"), "\(url)")
            #expect(url.contains("page=2&access_token=xxxxx&api_key=xxxxx&X-Amz-Signature=xxxxx"), "\(url)")
        }
    }
}
