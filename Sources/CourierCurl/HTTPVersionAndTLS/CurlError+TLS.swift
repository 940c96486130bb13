#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension CurlError {
    /// For a failure of TLS identity or trust, the `URLError` code URLSession gives it and words
    /// that say which side refused what; nil for every other failure, which keeps the table's
    /// code (``urlErrorCode(curlCode:osErrno:)``) and libcurl's words.
    ///
    /// libcurl reports a server's TLS alert under whatever call saw it: a TLS 1.3 server refuses
    /// a client certificate after the client thinks the handshake is done, so libcurl says
    /// CURLE_RECV_ERROR ("SSL_read: … alert certificate required"), which alone reads as a lost
    /// connection. OpenSSL's alert names are stable from 1.1 to 3.x; only a received alert names
    /// one, so a text with "alert" is always the server's verdict on this client. A client
    /// certificate libcurl could not load is not the server's doing, and not a `URLError` (see
    /// ``clientCertificateFailure(_:identity:)``).
    package static func tlsFailure(curlCode: Int, libcurlSaid text: String) -> (code: URLError.Code, message: String)? {
        switch curlCode {
        case Curl.Code.sslPinnedPublicKeyMismatch:
            return (.serverCertificateUntrusted, "the server's public key is not the pinned one (pinnedPublicKey); libcurl said: \(text)")
        case Curl.Code.sslConnectError, Curl.Code.recvError, Curl.Code.sendError, Curl.Code.sslClientCert:
            guard let row = alertRows.first(where: { text.contains($0.alert) }) else { return nil }
            return (row.code, "\(row.meaning); libcurl said: \(text)")
        default:
            return nil
        }
    }

    /// TLS alerts a server sends, by OpenSSL's name for them, first match wins.
    private static let alertRows: [(alert: String, code: URLError.Code, meaning: String)] = [
        ("alert certificate required", .clientCertificateRequired, "the server requires a client certificate and none was sent (clientCertificate)"),
        ("alert unknown ca", .clientCertificateRejected, "the server does not trust the client certificate's issuer"),
        ("alert bad certificate", .clientCertificateRejected, "the server rejected the client certificate"),
        ("alert certificate unknown", .clientCertificateRejected, "the server rejected the client certificate"),
        ("alert unsupported certificate", .clientCertificateRejected, "the server rejected the client certificate"),
        ("alert certificate expired", .clientCertificateRejected, "the server rejected the client certificate as expired"),
        ("alert certificate revoked", .clientCertificateRejected, "the server rejected the client certificate as revoked"),
        ("alert protocol version", .secureConnectionFailed, "the server and this client share no TLS version (see minimumTLSVersion)"),
        ("unsupported protocol", .secureConnectionFailed, "the server and this client share no TLS version (see minimumTLSVersion)"),
    ]
}
