#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLError {
    /// What a translated error says: libcurl's words, or words of Courier's before or instead
    /// of them where libcurl's alone would mislead.
    private enum Words {
        case libcurl
        case explained(String)
        case replaced(String)
    }

    /// libcurl's messages (7.68 to 8.x) by the failure they report, first match wins. The code
    /// is the one `CurlTransport` gives for the `CURLcode` behind the message, so both engines
    /// answer one failure alike.
    private static let rows: [(fragment: String, code: Code, words: Words)] = [
        // The TLS rows come first: OpenSSL's texts hold words the later rows look for.
        // CURLE_PEER_FAILED_VERIFICATION: the chain (self-signed, unknown issuer, expired), then
        // the host name, checked in that order; the last row is libcurl's text for the code
        // when it wrote none of its own.
        ("SSL certificate problem", .serverCertificateUntrusted, .libcurl),
        ("certificate subject name", .serverCertificateUntrusted, .libcurl),
        ("common name from peer certificate", .serverCertificateUntrusted, .libcurl),
        ("SSL peer certificate or SSH remote key was not OK", .serverCertificateUntrusted, .libcurl),
        // CURLE_RECV_ERROR and CURLE_SEND_ERROR on a TLS connection that was established.
        ("SSL_read", .networkConnectionLost, .libcurl),
        ("SSL_write", .networkConnectionLost, .libcurl),
        // CURLE_SSL_CONNECT_ERROR (a handshake that failed: a plain HTTP server, a TLS version
        // or cipher the two sides do not share) and CURLE_SSL_CACERT_BADFILE.
        ("SSL_connect", .secureConnectionFailed, .libcurl),
        ("SSL routines", .secureConnectionFailed, .libcurl),
        ("SSL connect error", .secureConnectionFailed, .libcurl),
        ("error setting certificate", .secureConnectionFailed, .libcurl),
        // CURLE_PARTIAL_FILE: 7.x says "transfer closed with N bytes remaining to read", 8.x
        // "end of response with N bytes missing".
        ("transfer closed with", .networkConnectionLost, .libcurl),
        ("end of response with", .networkConnectionLost, .libcurl),
        ("chunked-encoding", .networkConnectionLost, .libcurl),
        ("Recv failure", .networkConnectionLost, .libcurl),
        ("Send failure", .networkConnectionLost, .libcurl),
        ("unencoding", .cannotDecodeContentData, .libcurl),
        ("Unrecognized content encoding", .cannotDecodeContentData, .libcurl),
        ("Nul byte in header", .badServerResponse, .libcurl),
        ("Header without colon", .badServerResponse, .libcurl),
        ("Weird server reply", .badServerResponse, .libcurl),
        ("HTTP/0.9", .badServerResponse, .explained(notHTTP)),
        ("Unsupported HTTP version", .badServerResponse, .explained(notHTTP)),
        ("Invalid status line", .badServerResponse, .explained(notHTTP)),
        // 8.x's words for a status line whose code is not three digits.
        ("Unsupported HTTP/1 subversion", .badServerResponse, .explained(notHTTP)),
        // FoundationNetworking parses the head again after libcurl, and aborts the transfer from
        // its header callback when its parser refuses a line libcurl accepted; libcurl then
        // reports a write error, which says nothing about the server. Its parser needs a space
        // after the status code and a colon right after each field name. 7.x says "Failed
        // writing header", 8.x "Failure writing output to destination"; FoundationNetworking's
        // body callback never refuses data, so the write that failed is the head's.
        ("Failed writing header", .badServerResponse, .replaced(unparsedHead)),
        ("Failure writing output to destination", .badServerResponse, .replaced(unparsedHead)),
        // A header line past libcurl's 100 KiB: 7.x says out of memory, 8.6 on CURLE_TOO_LARGE.
        ("Out of memory", .dataLengthExceedsMaximum, .explained(headerLineTooLong)),
        ("grew larger than allowed", .dataLengthExceedsMaximum, .explained(headerLineTooLong)),
        ("too large", .dataLengthExceedsMaximum, .libcurl),
    ]

    private static let notHTTP = "the reply is not HTTP/1.x or later"

    private static let headerLineTooLong = "a response header line is longer than libcurl accepts (100 KiB)"

    private static let unparsedHead = """
        FoundationNetworking could not parse the status line or a header line; it refuses a status \
        line with no space after the code (`HTTP/1.1 200`, where `HTTP/1.1 200 OK` or \
        `HTTP/1.1 200 ` would do) and a field whose name is not followed by a colon
        """

    /// FoundationNetworking's error for a task in the code `CurlTransport` gives for the same
    /// failure.
    ///
    /// FoundationNetworking maps only a few libcurl codes and reports the rest as `.unknown`,
    /// keeping libcurl's message as the description; libcurl's code itself is not kept. The
    /// message is the only trace of what failed, so the rows above read it. A message that
    /// matches no row keeps FoundationNetworking's code.
    ///
    /// FoundationNetworking's own timeout says nothing; it is the idle timeout this engine gave
    /// the request (`request`'s own, resolved under the policies), so the message names it, as
    /// `CurlTransport`'s does.
    static func translated(_ error: any Error, request: URLRequest) -> any Error {
        if let error = error as? URLError, error.code == .timedOut, error.userInfo[NSLocalizedDescriptionKey] == nil {
            let interval = min(request.timeoutInterval, URLRequest.maximumTimeoutInterval)
            return URLError(.timedOut, "no data received or sent for \(interval.formattedSeconds)", url: request.url, underlying: error)
        }
        guard let error = error as? URLError,
              // Only the codes FoundationNetworking gives libcurl failures it does not map: an
              // http(s) request that ends in .unsupportedURL was answered by something other
              // than HTTP.
              error.code == .unknown || error.code == .unsupportedURL
        else { return error }
        let message = (error.userInfo[NSLocalizedDescriptionKey] as? String) ?? ""
        guard let row = rows.first(where: { message.contains($0.fragment) }) else { return error }
        var info = error.userInfo
        switch row.words {
        case .libcurl: break
        case .explained(let explanation): info[NSLocalizedDescriptionKey] = "\(explanation); libcurl said: \(message)"
        case .replaced(let text): info[NSLocalizedDescriptionKey] = text
        }
        info[NSUnderlyingErrorKey] = error
        return URLError(row.code, userInfo: info)
    }
}
