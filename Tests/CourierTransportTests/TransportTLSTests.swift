#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Courier
import CourierTestSupport
import Foundation
import Testing

/// TLS failures both engines can meet on loopback, against `HTTPSTestServer` (python3 and
/// openssl; certificates made per test). Neither engine can be told to trust a test CA the same
/// way (URLSession on Linux has no setting for it), so what is compared is the most common
/// failure: a certificate nobody trusts.
@Suite struct TransportTLSTests {
    @Test(arguments: TransportKind.configured, [HTTPSTestServer.Identity.selfSigned, .caSigned])
    func anUntrustedCertificateIsServerCertificateUntrusted(
        _ transport: TransportKind, identity: HTTPSTestServer.Identity
    ) async throws {
        try await withHTTPSServer(identity) { server, _ in
            let url = server.url("/get")
            let error = try #require(await failure(transport.networking, url))
            #expect(error.code == .serverCertificateUntrusted, "\(error)")
            let description = error.localizedDescription
            // The self-signed certificate has no issuer to look up; the CA-signed one an issuer
            // that is not in the system's store.
            let problem = identity == .selfSigned ? "self-signed certificate" : "unable to get local issuer certificate"
            #expect(description == "the server's certificate is not trusted: SSL certificate problem: \(problem) (GET \(url.absoluteString))")
            #expect(error.failingURL == url)
        }
    }

    /// The URLError `url` fails with; nil, and an issue recorded, when it succeeds or fails
    /// with another type.
    private func failure(_ networking: Networking, _ url: URL) async -> URLError? {
        var request = URLRequest(url: url)
        request.timeoutInterval = TestRun.hangLimitSeconds
        do {
            _ = try await networking(request)
            Issue.record("\(url) succeeded")
        } catch let error as URLError {
            return error
        } catch {
            Issue.record("expected a URLError, got \(error)")
        }
        return nil
    }
}
