#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestServer
import Foundation
import Testing

/// A password in the request's URL never reaches an error's words, which end up in logs: it
/// reads `xxxxx` there, whatever failed and wherever the words are read from.
@Suite(.testServer) struct TransportRedactionTests {
    static let password = "s3cr3tpw"

    /// `url` with `alice` and ``password`` as its user information.
    static func withCredentials(_ url: URL) throws -> URL {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
        components.user = "alice"
        components.password = password
        return try #require(components.url)
    }

    @Test(arguments: TransportKind.configured)
    func aRefusedConnectionNamesNoPassword(_ transport: TransportKind) async throws {
        let refusing = try await RefusingPort.open()
        let url = try Self.withCredentials(refusing.url("/get"))
        try await expectRedacted(URLRequest(url: url), on: transport)
        try await refusing.close()
    }

    @Test(arguments: TransportKind.configured)
    func aBodyCutShortNamesNoPassword(_ transport: TransportKind) async throws {
        let url = try Self.withCredentials(try sharedServer().url("/truncate/100000"))
        try await expectRedacted(URLRequest(url: url), on: transport)
    }

    /// Every text the failure offers: the `URLError`'s description, `localizedDescription` and
    /// `NSLocalizedDescriptionKey`, and those of the ``APIError`` a ``Dispatcher`` makes of it.
    private func expectRedacted(_ request: URLRequest, on transport: TransportKind) async throws {
        let error = try #require(await urlError(sending: request, on: transport))
        let described = try #require(error.userInfo[NSLocalizedDescriptionKey] as? String)
        for text in [described, error.localizedDescription] {
            #expect(!text.contains(Self.password), "\(text)")
            #expect(text.contains("alice:xxxxx@127.0.0.1:"), "\(text)")
        }
        do {
            _ = try await Dispatcher(networking: transport.networking).dispatch(request)
            Issue.record("expected an APIError")
        } catch {
            // APIError is not a LocalizedError: its localizedDescription is Foundation's generic
            // sentence, which names no URL at all.
            #expect(!error.localizedDescription.contains(Self.password), "\(error.localizedDescription)")
            for text in [error.description, "\(error)"] {
                #expect(!text.contains(Self.password), "\(text)")
                #expect(text.contains("GET http://alice:xxxxx@127.0.0.1:"), "\(text)")
            }
        }
    }

    private func urlError(sending request: URLRequest, on transport: TransportKind) async -> URLError? {
        do {
            _ = try await transport.send(request)
            Issue.record("expected the request to fail")
        } catch let error as URLError {
            return error
        } catch {
            Issue.record("expected a URLError, got \(error)")
        }
        return nil
    }
}
