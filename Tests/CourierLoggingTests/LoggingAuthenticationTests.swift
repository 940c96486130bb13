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

/// A credential never reaches a log line, whether the logging layer sits outside the
/// authentication layer (one line per call) or inside it (a line per send, the credential on
/// the request).
@Suite struct LoggingAuthenticationTests {
    @Test(arguments: Engine.allCases)
    func noLineCarriesTheCredentialOldOrNewOrAFailedRefresh(_ engine: Engine) async throws {
        let (logger, store) = RecordingLogHandler.logger(level: .trace)
        // The route takes the token it accepts in its path, which is logged: the new one is
        // not secret here, the ones sent and rejected are.
        let renewed = "renewed"
        try await engine.withExchange { server, exchange in
            let refreshing = Authentication(origin: server.url("/"), credential: .bearer(Secrets.token)) { _ in .bearer(renewed) }
            let logged = layered(exchange, [logging(to: logger), refreshing, logging(to: logger)])
            let (_, head) = try await logged(URLRequest(url: server.url("/bearer/log/\(renewed)")))
            #expect(head.statusCode == 200)
            let failing = Authentication(origin: server.url("/"), credential: .bearer(Secrets.signature)) { _ in
                throw URLError(.userAuthenticationRequired)
            }
            let refused = layered(exchange, [logging(to: logger), failing, logging(to: logger)])
            await #expect(throws: AuthenticationError.self) {
                try await refused(URLRequest(url: server.url("/bearer/log/never")))
            }
        }
        let lines = store.entries.map { "\($0.message) \($0.metadata)" }
        // The outer layer once per call; the inner one per send: twice for the refreshed call.
        #expect(lines.count == 5)
        #expect(lines.contains { $0.contains("401") })
        for secret in [Secrets.token, Secrets.signature] {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) logged")
        }
    }
}
