#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestSupport
import Foundation
import Testing
@testable import Courier
@testable import CourierCurl

/// CurlTransport's TLS identity and trust settings — a CA directory, a client certificate with
/// a key that may be encrypted, a pinned public key, the lowest TLS version — live against the
/// python HTTPS server on 127.0.0.1, which can demand a client certificate and cap its TLS
/// version. Each failure must come out as the `URLError` code URLSession uses for it, with
/// words that say what failed and never the key's passphrase.
/// One test at a time: each makes certificates and starts servers, and all at once they took
/// the CPU from other suites' tests that time what they wait for.
@Suite("CurlTransport TLS identity and trust on loopback", .serialized)
struct CurlTransportTLSIdentityTests {
    private func withTransport<T>(
        _ configuration: CurlTransport.Configuration,
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

    private func trusting(_ files: TLSTestFiles, _ configure: (inout CurlTransport.Configuration) -> Void = { _ in }) -> CurlTransport.Configuration {
        var configuration = CurlTransport.Configuration()
        configuration.caBundlePath = files.caBundlePath
        configure(&configuration)
        return configuration
    }

    /// The status of a GET of `/get`, or the URLError it failed with; nil, with an issue
    /// recorded, for any other error.
    private func outcome(
        _ configuration: CurlTransport.Configuration, _ server: HTTPSTestServer, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Result<Int, URLError>? {
        do {
            return try await withTransport(configuration) { transport in
                do {
                    let response = try await transport.response(for: URLRequest(url: server.url("/get")))
                    return .success(response.statusCode)
                } catch let error as URLError {
                    return .failure(error)
                }
            }
        } catch {
            Issue.record("expected a response or a URLError, got \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    private func failure(_ result: Result<Int, URLError>?, sourceLocation: SourceLocation = #_sourceLocation) -> URLError? {
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)", sourceLocation: sourceLocation)
            return nil
        }
        return error
    }

    // MARK: Trust

    @Test func aCADirectoryIsTrustedBesideTheBundle() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            var configuration = CurlTransport.Configuration()
            configuration.caDirectoryPath = files.caDirectoryPath
            #expect(await outcome(configuration, server) == .success(200))
            configuration.caDirectoryPath = nil
            #expect(failure(await outcome(configuration, server))?.code == .serverCertificateUntrusted)
        }
    }

    @Test func theRightPinnedKeyIsAccepted() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            let pin = try files.pinnedPublicKey(of: .caSigned)
            #expect(await outcome(trusting(files) { $0.pinnedPublicKey = pin }, server) == .success(200))
            // Several pins, one of them the server's.
            let pins = "\(try files.pinnedPublicKey(of: .otherName));\(pin)"
            #expect(await outcome(trusting(files) { $0.pinnedPublicKey = pins }, server) == .success(200))
        }
    }

    /// The chain verifies, but the key is not the pinned one.
    @Test func aWrongPinnedKeyIsServerCertificateUntrusted() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            let wrong = try files.pinnedPublicKey(of: .otherName)
            let error = failure(await outcome(trusting(files) { $0.pinnedPublicKey = wrong }, server))
            #expect(error?.code == .serverCertificateUntrusted)
            #expect(error?.localizedDescription.contains("pinned") == true)
            #expect(error.flatMap(CurlError.underlying(of:))?.curlCode == 90)
        }
    }

    // MARK: Client certificates

    @Test func aServerDemandingACertificateGetsTheConfiguredOne() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let identity = CurlTransport.ClientCertificate(certificatePath: files.clientCertificatePath, privateKeyPath: files.clientKeyPath)
            #expect(await outcome(trusting(files) { $0.clientCertificate = identity }, server) == .success(200))
        }
    }

    @Test func noCertificateForAServerDemandingOneIsClientCertificateRequired() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let error = failure(await outcome(trusting(files), server))
            #expect(error?.code == .clientCertificateRequired)
            #expect(error?.localizedDescription.contains("requires a client certificate") == true)
        }
    }

    @Test func aCertificateFromAnotherIssuerIsClientCertificateRejected() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let identity = CurlTransport.ClientCertificate(
                certificatePath: files.untrustedClientCertificatePath, privateKeyPath: files.untrustedClientKeyPath
            )
            let error = failure(await outcome(trusting(files) { $0.clientCertificate = identity }, server))
            #expect(error?.code == .clientCertificateRejected)
            #expect(error?.localizedDescription.contains("client certificate") == true)
        }
    }

    @Test func anEncryptedKeyWithItsPassphraseIsUsed() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let identity = CurlTransport.ClientCertificate(
                certificatePath: files.clientCertificatePath, privateKeyPath: files.encryptedClientKeyPath,
                passphrase: files.clientKeyPassphrase
            )
            #expect(await outcome(trusting(files) { $0.clientCertificate = identity }, server) == .success(200))
        }
    }

    @Test func aPassphraseNeverAppearsInADescriptionOrADump() {
        var configuration = CurlTransport.Configuration()
        configuration.clientCertificate = .init(certificatePath: "/c.pem", privateKeyPath: "/k.pem", passphrase: "hunter2")
        var dumped = ""
        dump(configuration, to: &dumped)
        for text in [dumped, "\(configuration)", String(reflecting: configuration), "\(configuration.clientCertificate!)"] {
            #expect(!text.contains("hunter2"), "\(text)")
        }
        #expect("\(configuration.clientCertificate!)".contains("/k.pem"))
    }

    // MARK: TLS versions

    @Test func minimumTLS1_3AgainstAServerCappedAt1_2IsSecureConnectionFailed() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(maximumTLSVersion: "1.2")) { server, files in
            #expect(await outcome(trusting(files), server) == .success(200))
            let error = failure(await outcome(trusting(files) { $0.minimumTLSVersion = .tls1_3 }, server))
            #expect(error?.code == .secureConnectionFailed)
            #expect(error?.localizedDescription.contains("TLS version") == true)
        }
    }

    @Test func minimumTLS1_3IsMetByAServerThatSpeaksIt() async throws {
        try await withHTTPSServer(.caSigned) { server, files in
            #expect(await outcome(trusting(files) { $0.minimumTLSVersion = .tls1_3 }, server) == .success(200))
        }
    }
}
