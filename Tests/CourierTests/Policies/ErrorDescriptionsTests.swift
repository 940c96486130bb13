#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Courier

/// The words the error-description layer puts first: what happened, for each code a reader acts
/// on differently.
@Suite struct ErrorDescriptionsTests {
    /// A server asking for a certificate and a server refusing the one sent call for different
    /// fixes, and neither is a local file that cannot be read.
    @Test func theTwoClientCertificateVerdictsReadApart() throws {
        let request = URLRequest(url: try #require(URL(string: "https://a.test/")))
        #expect(URLError(.clientCertificateRequired).described(for: request).whatHappened == "the server requires a client certificate")
        #expect(URLError(.clientCertificateRejected).described(for: request).whatHappened == "the server refused the client certificate")
    }
}
