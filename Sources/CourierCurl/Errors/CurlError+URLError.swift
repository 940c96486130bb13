#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// MARK: - The one table from CURLcode to URLError

extension CurlError {
    /// The `URLError` code URLSession reports for the event libcurl reported as `curlCode`.
    ///
    /// FoundationNetworking (URLSession on Linux) maps a few codes and reports `.unknown` for the
    /// rest; where it does, this table uses the code Darwin's URLSession gives for the same
    /// event, so callers can switch on it. Rows that differ from FoundationNetworking say so.
    /// `osErrno` is `CURLINFO_OS_ERRNO`, which FoundationNetworking consults first.
    package static func urlErrorCode(curlCode: Int, osErrno: Int32) -> URLError.Code {
        // FoundationNetworking checks the errno before the CURLcode, on fresh handles. Ours are
        // reused, and CURLINFO_OS_ERRNO survives from one transfer to the next: a handle once refused kept
        // reporting ECONNREFUSED, so an empty reply on a later transfer came out as
        // .cannotConnectToHost. The errno is only trusted for a failed connect.
        switch curlCode {
        // The engine sends only http and https URLs, so libcurl reports this code for a reply
        // that is not HTTP: an SSH banner, an HTTP/0.9 body or a status line with a bad version.
        // URLSession says .unsupportedURL, which sends a reader to look at the URL instead.
        case Curl.Code.unsupportedProtocol: return .badServerResponse
        // libcurl 7.x reports a header line past its 100 KiB limit (CURL_MAX_HTTP_HEADER) as
        // out of memory, and 8.6 on as CURLE_TOO_LARGE; an allocation that really failed is
        // rarer than a hostile server.
        case Curl.Code.outOfMemory, Curl.Code.tooLarge: return .dataLengthExceedsMaximum
        case Curl.Code.urlMalformat: return .badURL
        case Curl.Code.couldntResolveHost, Curl.Code.couldntResolveProxy: return .cannotFindHost
        case Curl.Code.couldntConnect: return osErrno == ETIMEDOUT ? .timedOut : .cannotConnectToHost
        case Curl.Code.proxy, Curl.Code.quicConnectError: return .cannotConnectToHost
        case Curl.Code.operationTimedOut: return .timedOut
        // An empty reply (the server closed without a status line): FoundationNetworking says
        // .badServerResponse, measured against a socket that closes after reading the request.
        case Curl.Code.gotNothing, Curl.Code.weirdServerReply, Curl.Code.http2: return .badServerResponse
        // FoundationNetworking says .networkConnectionLost only for ECONNRESET and .unknown
        // otherwise, and .unknown for a body cut short (PARTIAL_FILE); Darwin says
        // .networkConnectionLost for all of them.
        case Curl.Code.recvError, Curl.Code.sendError, Curl.Code.partialFile,
             Curl.Code.http2Stream, Curl.Code.http3:
            return .networkConnectionLost
        case Curl.Code.sslConnectError, Curl.Code.sslCipher, Curl.Code.useSSLFailed,
             Curl.Code.sslEngineNotFound, Curl.Code.sslEngineSetFailed, Curl.Code.sslShutdownFailed,
             Curl.Code.sslCACertBadFile, Curl.Code.sslCRLBadFile, Curl.Code.echRequired:
            return .secureConnectionFailed
        // FoundationNetworking reports an untrusted or misnamed certificate as .unknown (measured
        // against a self-signed server on loopback); Darwin's code is the one callers can act on,
        // and URLSessionTransport reads libcurl's message back into it.
        case Curl.Code.peerFailedVerification, Curl.Code.sslIssuerError: return .serverCertificateUntrusted
        case Curl.Code.sslCertProblem: return .clientCertificateRejected
        case Curl.Code.sslClientCert: return .clientCertificateRequired
        case Curl.Code.badContentEncoding: return .cannotDecodeContentData
        case Curl.Code.fileSizeExceeded: return .dataLengthExceedsMaximum
        case Curl.Code.tooManyRedirects: return .httpTooManyRedirects
        case Curl.Code.abortedByCallback: return .cancelled
        case Curl.Code.sendFailRewind: return .requestBodyStreamExhausted
        // libcurl's own wait on the sockets failed (7.84 on): the connection can no longer be
        // watched, which a caller handles as it handles a lost one.
        case Curl.Code.unrecoverablePoll: return .networkConnectionLost
        default: return .unknown
        }
    }

    /// libcurl's words for a failure, with what they leave out where they mislead. `duringBody`:
    /// the failure came after a streamed body's head was handed over.
    package static func message(forCode code: Int, libcurlSaid text: String, duringBody: Bool = false) -> String {
        switch code {
        // While a transfer is paused for its reader, libcurl keeps what one read decodes to,
        // at most 64 MiB (DYN_PAUSE_BUFFER), and reports more as out of memory (7.x) or as
        // CURLE_TOO_LARGE (8.6 on), the codes it also gives a header line that is too long.
        case Curl.Code.outOfMemory where duringBody, Curl.Code.tooLarge where duringBody:
            "one read decoded to more than libcurl holds for a paused transfer (64 MiB), a compression bomb's mark; libcurl said: \(text)"
        case Curl.Code.outOfMemory, Curl.Code.tooLarge:
            "a response header line is longer than libcurl accepts (100 KiB); libcurl said: \(text)"
        case Curl.Code.unsupportedProtocol: "the reply is not HTTP/1.x or later; libcurl said: \(text)"
        // libcurl 8 reports a reply that is not HTTP on a reused connection as a weird server
        // reply, in the words it gives a bad status line, rather than as an unknown protocol.
        case Curl.Code.weirdServerReply where text.hasPrefix("Invalid status line") || text.hasPrefix("Unsupported HTTP"):
            "the reply is not HTTP/1.x or later; libcurl said: \(text)"
        default: text
        }
    }

    /// This error wrapped the way URLSession reports failures: a `URLError` with the mapped
    /// code, libcurl's message as its description, and `self` as the underlying error.
    package func urlError(code: URLError.Code, url: URL?) -> URLError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message, NSUnderlyingErrorKey: self]
        if let url {
            info[NSURLErrorFailingURLErrorKey] = url
        }
        return URLError(code, userInfo: info)
    }

    /// The `CurlError` a `URLError` thrown by ``CurlTransport`` carries, if any.
    package static func underlying(of error: URLError) -> CurlError? {
        error.userInfo[NSUnderlyingErrorKey] as? CurlError
    }
}
