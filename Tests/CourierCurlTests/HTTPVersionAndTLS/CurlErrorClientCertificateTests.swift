#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CourierTestSupport
import Foundation
import Testing
@testable import CourierCurl

/// A client certificate the caller configured but that cannot be used is the caller's problem,
/// not the server's: a `CurlError` of kind `clientCertificateUnusable` naming the file, thrown
/// when the transport is created for a file that cannot be opened, and when libcurl cannot load
/// it (`CURLE_SSL_CERTPROBLEM`) for the rest, never quoting the passphrase.
@Suite("A client certificate that cannot be used", .serialized)
struct CurlErrorClientCertificateTests {
    /// The error `CurlTransport(configuration:)` throws for `identity`, or an issue when it
    /// throws none.
    private func creationError(_ identity: CurlTransport.ClientCertificate, sourceLocation: SourceLocation = #_sourceLocation) -> CurlError? {
        var configuration = CurlTransport.Configuration()
        configuration.clientCertificate = identity
        do {
            let transport = try CurlTransport(configuration: configuration)
            Issue.record("the transport was created with \(identity)", sourceLocation: sourceLocation)
            _ = transport
            return nil
        } catch {
            return error
        }
    }

    /// The error a GET of `/get` fails with under `identity`, trusting the server; an issue when
    /// it succeeds.
    private func requestError(
        _ identity: CurlTransport.ClientCertificate, _ server: HTTPSTestServer, _ files: TLSTestFiles,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (any Error)? {
        var configuration = CurlTransport.Configuration()
        configuration.caBundlePath = files.caBundlePath
        configuration.clientCertificate = identity
        let transport = try CurlTransport(configuration: configuration)
        defer { Task { await transport.shutdown() } }
        do {
            let response = try await transport.response(for: URLRequest(url: server.url("/get")))
            Issue.record("expected a failure, got \(response.statusCode)", sourceLocation: sourceLocation)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingCertificateFileFailsWhenTheTransportIsCreated() throws {
        let path = "/nonexistent-\(UUID().uuidString)/client.pem"
        let error = try #require(creationError(.init(certificatePath: path)))
        #expect(error.kind == .clientCertificateUnusable)
        #expect(error.curlCode == 58)
        #expect(error.message == "the client certificate \(path) does not exist (ClientCertificate.certificatePath); nothing was sent")
    }

    @Test func aMissingKeyFileFailsWhenTheTransportIsCreated() throws {
        let files = try TLSTestFiles.make()
        defer { files.remove() }
        let key = files.directory.appendingPathComponent("no-such.key").path
        let error = try #require(creationError(.init(certificatePath: files.clientCertificatePath, privateKeyPath: key, passphrase: "hunter2")))
        #expect(error.kind == .clientCertificateUnusable)
        #expect(error.message == "the client certificate's private key \(key) does not exist (ClientCertificate.privateKeyPath); nothing was sent")
        #expect(!error.description.contains("hunter2"))
    }

    /// Opening a directory succeeds; reading it would not.
    @Test func aDirectoryIsNotACertificate() throws {
        let files = try TLSTestFiles.make()
        defer { files.remove() }
        let error = try #require(creationError(.init(certificatePath: files.directory.path)))
        #expect(error.kind == .clientCertificateUnusable)
        #expect(error.message.contains("\(files.directory.path) is a directory"))
    }

    @Test func readableFilesPassTheCheck() throws {
        let files = try TLSTestFiles.make()
        defer { files.remove() }
        let identity = CurlTransport.ClientCertificate(certificatePath: files.clientCertificatePath, privateKeyPath: files.clientKeyPath)
        #expect(identity.unreadableFileError() == nil)
    }

    /// The key cannot be decrypted: libcurl fails before the handshake, and nothing the caller
    /// sees quotes the passphrase.
    @Test(arguments: ["not-the-passphrase", nil] as [String?])
    func aWrongPassphraseNamesTheKeyWithoutQuotingIt(passphrase: String?) async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let identity = CurlTransport.ClientCertificate(
                certificatePath: files.clientCertificatePath, privateKeyPath: files.encryptedClientKeyPath, passphrase: passphrase
            )
            let error = try await requestError(identity, server, files)
            let unusable = try #require(error as? CurlError, "\(String(describing: error))")
            #expect(unusable.kind == .clientCertificateUnusable)
            #expect(unusable.curlCode == 58)
            #expect(unusable.message.hasPrefix("the client certificate's private key \(files.encryptedClientKeyPath) cannot be used"), "\(unusable.message)")
            #expect(unusable.message.contains("passphrase"))
            for text in [unusable.description, "\(String(describing: error))", error?.localizedDescription ?? ""] {
                #expect(!text.contains("not-the-passphrase"))
                #expect(!text.contains(files.clientKeyPassphrase))
            }
        }
    }

    @Test func aKeyOfAnotherCertificateIsUnusable() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let identity = CurlTransport.ClientCertificate(certificatePath: files.clientCertificatePath, privateKeyPath: files.untrustedClientKeyPath)
            let error = try await requestError(identity, server, files)
            let unusable = try #require(error as? CurlError, "\(String(describing: error))")
            #expect(unusable.kind == .clientCertificateUnusable)
            #expect(unusable.message.hasPrefix("the client certificate's private key \(files.untrustedClientKeyPath) cannot be used"), "\(unusable.message)")
        }
    }

    @Test func aFileThatIsNotPEMIsUnusable() async throws {
        try await withHTTPSServer(.caSigned, demands: .init(clientCertificate: true)) { server, files in
            let garbage = files.directory.appendingPathComponent("not-pem.pem").path
            try Data("not a certificate\n".utf8).write(to: URL(fileURLWithPath: garbage))
            let error = try await requestError(.init(certificatePath: garbage), server, files)
            let unusable = try #require(error as? CurlError, "\(String(describing: error))")
            #expect(unusable.kind == .clientCertificateUnusable)
            #expect(unusable.message.hasPrefix("the client certificate \(garbage) cannot be loaded"), "\(unusable.message)")
        }
    }

    /// Only CURLE_SSL_CERTPROBLEM is the caller's certificate; a server's refusal stays a
    /// URLError.
    @Test func otherCodesAreNotTheLocalCertificate() {
        let refused = CurlError.ProxyOutcome(code: 56, libcurlSaid: "tlsv13 alert certificate required", connectStatus: 0, proxyError: .other)
        #expect(CurlError.clientCertificateFailure(refused, identity: nil) == nil)
    }
}
