#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import CourierCurl

/// The reading of libcurl's TLS failures into URLSession's codes, on the texts libcurl 7.88 with
/// OpenSSL 3 writes; the live tests provoke the common ones, these pin the rest.
@Suite struct CurlErrorTLSTests {
    static let rows: [(code: Int, text: String, expected: URLError.Code?)] = [
        (56, "OpenSSL SSL_read: error:0A00045C:SSL routines::tlsv13 alert certificate required, errno 0", .clientCertificateRequired),
        (35, "OpenSSL/3.0.19: error:0A000418:SSL routines::tlsv1 alert unknown ca", .clientCertificateRejected),
        (56, "OpenSSL SSL_read: error:0A000412:SSL routines::sslv3 alert bad certificate, errno 0", .clientCertificateRejected),
        (35, "error:0A000416:SSL routines::sslv3 alert certificate unknown", .clientCertificateRejected),
        (35, "OpenSSL/3.0.19: error:0A00042E:SSL routines::tlsv1 alert protocol version", .secureConnectionFailed),
        (35, "OpenSSL/3.0.19: error:0A000102:SSL routines::unsupported protocol", .secureConnectionFailed),
        (90, "SSL: public key does not match pinned public key", .serverCertificateUntrusted),
        // Not TLS identity: the table's code and libcurl's words stand.
        (35, "OpenSSL/3.0.19: error:0A00010B:SSL routines::wrong version number", nil),
        (56, "Recv failure: Connection reset by peer", nil),
        (60, "SSL certificate problem: self-signed certificate", nil),
        (7, "Failed to connect to 127.0.0.1 port 9: Connection refused", nil),
        // An alert's words under a code that is not about TLS mean nothing here.
        (28, "tlsv13 alert certificate required", nil),
    ]

    @Test(arguments: 0..<rows.count)
    func eachFailureGetsURLSessionsCode(_ index: Int) {
        let row = Self.rows[index]
        let failure = CurlError.tlsFailure(curlCode: row.code, libcurlSaid: row.text)
        #expect(failure?.code == row.expected, "\(row.text)")
        if let failure {
            // libcurl's words are kept after Courier's.
            #expect(failure.message.hasSuffix("libcurl said: \(row.text)"))
        }
    }
}
