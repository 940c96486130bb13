#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestServer
import CourierTestSupport
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CurlTransport's TLS settings and the TLS rows of the CURLcode → URLError table, live against
/// an HTTPS server on 127.0.0.1 (`HTTPSTestServer` in CourierTestSupport: python3 + openssl,
/// certificates made per test).
///
/// URLSession on Linux cannot trust a custom CA without a delegate, so most of these failures
/// cannot be provoked on it; the shared transport suite compares the two engines on an untrusted
/// certificate only. Here each failure's libcurl message is also read by URLSessionTransport's
/// table, as FoundationNetworking would hand it over, and must come out with CurlTransport's code.
@Suite("CurlTransport over TLS on loopback")
struct CurlTransportTLSTests {
    /// A transport with `configuration`, shut down afterwards whatever happens.
    private func withTransport<T>(
        _ configuration: CurlTransport.Configuration = .init(),
        _ body: (CurlTransport) async throws -> T
    ) async throws -> T {
        let transport = try CurlTransport(configuration: configuration)
        do {
            let result = try await body(transport)
            await transport.shutdown()
            return result
        } catch {
            await transport.shutdown()
            throw error
        }
    }

    /// The URLError and the underlying CurlError `request` fails with; nil when it succeeds.
    /// A failure libcurl reported is also checked against URLSessionTransport's reading of it.
    private func failure(
        _ transport: CurlTransport, _ url: URL, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> (code: URLError.Code, curl: CurlError?, url: URL?)? {
        do {
            _ = try await transport.data(for: request(url))
            return nil
        } catch let error as URLError {
            let curl = CurlError.underlying(of: error)
            if let curl {
                expectURLSessionReads(curl.message, as: error.code, url: url, sourceLocation: sourceLocation)
            }
            return (error.code, curl, error.failingURL)
        } catch {
            Issue.record("expected a URLError, got \(error)")
            return nil
        }
    }

    /// FoundationNetworking reports these libcurl failures as `.unknown` with libcurl's message
    /// as the description, and URLSessionTransport reads the message; the code it finds must be
    /// CurlTransport's, or the two engines name one failure differently.
    private func expectURLSessionReads(
        _ message: String, as code: URLError.Code, url: URL, sourceLocation: SourceLocation
    ) {
        let fromFoundation = URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: message])
        let read = URLError.translated(fromFoundation, request: URLRequest(url: url)) as? URLError
        #expect(read?.code == code, "URLSessionTransport reads \"\(message)\" as \(String(describing: read?.code))", sourceLocation: sourceLocation)
        #expect(read?.userInfo[NSLocalizedDescriptionKey] as? String == message, sourceLocation: sourceLocation)
    }

    private func trusting(_ files: TLSTestFiles) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.caBundlePath = files.caBundlePath
        return configuration
    }

    // MARK: Trust

    @Test func serverIssuedByTheConfiguredCAIsTrusted() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            try await withTransport(trusting(files)) { transport in
                let url = server.url("/get")
                let (data, response) = try await transport.http(request(url))
                #expect(response.statusCode == 200)
                #expect(response.url == url)
                #expect(String(decoding: data, as: UTF8.self).contains("\"tls\": true"))
            }
        }
    }

    /// The default configuration trusts the system's CAs only: a self-signed certificate and
    /// one from an unknown CA are both CURLE_PEER_FAILED_VERIFICATION → .serverCertificateUntrusted.
    @Test(arguments: [HTTPSTestServer.Identity.selfSigned, .caSigned])
    func untrustedCertificateIsServerCertificateUntrusted(identity: HTTPSTestServer.Identity) async throws {
        try await withHTTPSServer(identity) { server, _ in
            try await withTransport { transport in
                let url = server.url("/get")
                let result = try #require(await failure(transport, url))
                #expect(result.code == .serverCertificateUntrusted)
                #expect(result.curl?.kind == .transfer)
                #expect(result.curl?.curlCode == Curl.Code.peerFailedVerification, "\(String(describing: result.curl))")
                #expect(result.curl?.message.contains("certificate") == true, "\(String(describing: result.curl))")
                #expect(result.url == url)
            }
        }
    }

    /// A certificate from a trusted CA for another name: libcurl's host check (also
    /// CURLE_PEER_FAILED_VERIFICATION) → .serverCertificateUntrusted, as on Darwin.
    @Test func certificateForAnotherNameFailsTheHostCheck() async throws {
        try await withHTTPSServer(.otherName) { server, files in
            try await withTransport(trusting(files)) { transport in
                let result = try #require(await failure(transport, server.url("/get")))
                #expect(result.code == .serverCertificateUntrusted)
                #expect(result.curl?.curlCode == Curl.Code.peerFailedVerification, "\(String(describing: result.curl))")
                #expect(result.curl?.message.contains("subject name") == true, "\(String(describing: result.curl))")
            }
        }
    }

    /// One switch turns off both checks, as curl's `-k`: either alone protects against nothing.
    @Test func verifiesPeerOffAcceptsACertificateForAnotherName() async throws {
        try await withHTTPSServer(.otherName) { server, files in
            var configuration = trusting(files)
            configuration.verifiesPeer = false
            try await withTransport(configuration) { transport in
                let (_, response) = try await transport.http(request(server.url("/get")))
                #expect(response.statusCode == 200)
            }
        }
    }

    @Test func verifiesPeerOffAcceptsASelfSignedCertificate() async throws {
        try await withHTTPSServer(.selfSigned) { server, _ in
            var configuration = CurlTransport.Configuration()
            configuration.verifiesPeer = false
            try await withTransport(configuration) { transport in
                let (_, response) = try await transport.http(request(server.url("/get")))
                #expect(response.statusCode == 200)
            }
        }
    }

    // MARK: Other TLS rows provoked live

    @Test func unreadableCABundleIsSecureConnectionFailed() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            var configuration = CurlTransport.Configuration()
            configuration.caBundlePath = files.directory.appendingPathComponent("missing.pem").path
            try await withTransport(configuration) { transport in
                let result = try #require(await failure(transport, server.url("/get")))
                #expect(result.code == .secureConnectionFailed)
                #expect(result.curl?.curlCode == Curl.Code.sslCACertBadFile, "\(String(describing: result.curl))")
            }
        }
    }

    @Test func httpsToAPlainHTTPServerIsSecureConnectionFailed() async throws {
        try await withCurlTransport { plain, transport in
            var components = URLComponents(url: plain.url("/get"), resolvingAgainstBaseURL: false)!
            components.scheme = "https"
            let result = try #require(await failure(transport, components.url!))
            #expect(result.code == .secureConnectionFailed)
            #expect(result.curl?.curlCode == Curl.Code.sslConnectError, "\(String(describing: result.curl))")
        }
    }

    // MARK: Redirects

    @Test func httpsToHTTPRedirectIsRefusedByDefault() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            let plain = try await TestServer.start()
            do {
                let start = server.url("/redirect-to?url=\(queryValue(plain.url("/get").absoluteString))")
                try await withTransport(trusting(files)) { transport in
                    let result = try #require(await failure(transport, start))
                    #expect(result.code == .appTransportSecurityRequiresSecureConnection)
                    #expect(result.curl == nil)
                    #expect(result.url == start)
                }
                #expect(plain.requestCount == 0)
                #expect(plain.acceptedConnectionCount == 0)
                try await plain.shutdown()
            } catch {
                try await plain.shutdown()
                throw error
            }
        }
    }

    @Test func httpsToHTTPRedirectIsFollowedWhenAllowed() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            let plain = try await TestServer.start()
            do {
                let target = plain.url("/get")
                var configuration = trusting(files)
                configuration.policies.redirects.allowsInsecureRedirects = true
                try await withTransport(configuration) { transport in
                    let (_, response) = try await transport.http(request(server.url("/redirect-to?url=\(queryValue(target.absoluteString))")))
                    #expect(response.statusCode == 200)
                    #expect(response.url == target)
                }
                #expect(plain.requestCount == 1)
                try await plain.shutdown()
            } catch {
                try await plain.shutdown()
                throw error
            }
        }
    }
}
