internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// The binding to libcurl: the one layer that calls it (this file and its `Curl+*.swift`
/// extensions in `Binding/`).
///
/// Everything else in CourierCurl talks to libcurl through these thin functions, so the C
/// surface, its pointer types and its return codes are visible in one place (as SwiftNIO's
/// `System.swift` does for POSIX). Each function either returns, or throws a ``CurlError`` that
/// keeps the `CURLcode` and libcurl's own message; none hides an extra option or a default.
package enum Curl {
    /// A `CURL *` easy handle.
    typealias EasyPointer = UnsafeMutableRawPointer
    /// A `CURLM *` multi handle.
    typealias MultiPointer = UnsafeMutableRawPointer
    /// A `struct curl_slist *` list of strings.
    typealias StringListPointer = OpaquePointer
    /// The signature libcurl calls for CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
    typealias WriteCallback = @convention(c) (
        UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?
    ) -> Int

    /// The signature libcurl calls for CURLOPT_READFUNCTION: buffer, size, count, context;
    /// returns the bytes written into the buffer, 0 at the end of the body.
    typealias ReadCallback = @convention(c) (
        UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?
    ) -> Int

    /// The signature libcurl calls for CURLOPT_SEEKFUNCTION: context, offset, origin (SEEK_SET
    /// and friends); returns one of ``seekOK``, ``seekFailed``.
    typealias SeekCallback = @convention(c) (UnsafeMutableRawPointer?, curl_off_t, Int32) -> Int32

    /// `CURL_SEEKFUNC_OK`, `CURL_SEEKFUNC_FAIL` and `CURL_SEEKFUNC_CANTSEEK`.
    static let seekOK = Int32(CURL_SEEKFUNC_OK)
    static let seekFailed = Int32(CURL_SEEKFUNC_FAIL)
    static let seekImpossible = Int32(CURL_SEEKFUNC_CANTSEEK)

    /// `CURL_READFUNC_ABORT`: what a read callback returns to stop the transfer.
    static let readAbort = Int(CURL_READFUNC_ABORT)

    /// `CURL_WRITEFUNC_PAUSE`: the write callback did not take the bytes; libcurl keeps them
    /// and stops receiving until ``pause(_:receive:send:)`` lets it go on.
    static let writePause = Int(ccurl_write_pause)

    /// `CURL_READFUNC_PAUSE`: the read callback has nothing yet; libcurl stops sending until
    /// ``pause(_:receive:send:)`` lets it go on.
    static let readPause = Int(ccurl_read_pause)

    /// The signature libcurl calls for CURLOPT_XFERINFOFUNCTION: context, bytes to download,
    /// downloaded, to upload, uploaded; non-zero aborts the transfer.
    typealias ProgressCallback = @convention(c) (
        UnsafeMutableRawPointer?, curl_off_t, curl_off_t, curl_off_t, curl_off_t
    ) -> Int32

    /// `CURL_ERROR_SIZE`: the buffer CURLOPT_ERRORBUFFER writes into.
    static let errorBufferSize = Int(ccurl_error_size)

    // MARK: - Process-wide setup

    /// Runs `curl_global_init` once per process and reports its failure, if any, to every caller.
    ///
    /// `curl_global_init` is not thread-safe against itself; a `static let` is initialised once,
    /// under the runtime's lock. SIGPIPE is ignored here too, once: every transfer sets
    /// CURLOPT_NOSIGNAL (libcurl must not touch signal handlers from worker threads), so a write
    /// to a socket the peer closed would otherwise raise SIGPIPE and kill the process. SwiftNIO
    /// and most servers make the same process-wide choice.
    static let globalInitError: CurlError? = {
        _ = signal(SIGPIPE, SIG_IGN)
        let code = curl_global_init(ccurl_global_all)
        guard code != CURLE_OK else { return nil }
        return CurlError(kind: .globalInit, curlCode: Int(code.rawValue), message: easyMessage(code))
    }()

    /// libcurl's version, e.g. `7.88.1`: the library linked at run time.
    static let version: String = {
        guard let info = curl_version_info(CURLversion(UInt32(ccurl_version_now))),
              let text = info.pointee.version else { return "unknown" }
        return String(cString: text)
    }()

    /// What the libcurl linked at run time was built with, which may differ from the headers
    /// the package was compiled against: a decoder or HTTP/2 is there only if its library was.
    static let features: CurlFeatures = {
        guard let info = curl_version_info(CURLversion(UInt32(ccurl_version_now))) else {
            return CurlFeatures(versionNumber: 0, zlib: false, brotli: false, zstd: false, http2: false, http3: false)
        }
        let bits = info.pointee.features
        return CurlFeatures(
            versionNumber: Int(info.pointee.version_num),
            zlib: bits & ccurl_feature_libz != 0,
            brotli: bits & ccurl_feature_brotli != 0,
            zstd: bits & ccurl_feature_zstd != 0,
            http2: bits & ccurl_feature_http2 != 0,
            http3: bits & ccurl_feature_http3 != 0
        )
    }()

    // MARK: - Codes

    /// The `CURLcode` values CourierCurl tells apart, read from libcurl's header.
    enum Code {
        static let ok = Int(CURLE_OK.rawValue)
        static let unsupportedProtocol = Int(CURLE_UNSUPPORTED_PROTOCOL.rawValue)
        static let urlMalformat = Int(CURLE_URL_MALFORMAT.rawValue)
        static let couldntResolveProxy = Int(CURLE_COULDNT_RESOLVE_PROXY.rawValue)
        static let couldntResolveHost = Int(CURLE_COULDNT_RESOLVE_HOST.rawValue)
        static let couldntConnect = Int(CURLE_COULDNT_CONNECT.rawValue)
        static let weirdServerReply = Int(CURLE_WEIRD_SERVER_REPLY.rawValue)
        static let http2 = Int(CURLE_HTTP2.rawValue)
        static let partialFile = Int(CURLE_PARTIAL_FILE.rawValue)
        static let writeError = Int(CURLE_WRITE_ERROR.rawValue)
        static let readError = Int(CURLE_READ_ERROR.rawValue)
        static let outOfMemory = Int(CURLE_OUT_OF_MEMORY.rawValue)
        static let operationTimedOut = Int(CURLE_OPERATION_TIMEDOUT.rawValue)
        static let sslConnectError = Int(CURLE_SSL_CONNECT_ERROR.rawValue)
        static let abortedByCallback = Int(CURLE_ABORTED_BY_CALLBACK.rawValue)
        static let tooManyRedirects = Int(CURLE_TOO_MANY_REDIRECTS.rawValue)
        static let gotNothing = Int(CURLE_GOT_NOTHING.rawValue)
        static let sslEngineNotFound = Int(CURLE_SSL_ENGINE_NOTFOUND.rawValue)
        static let sslEngineSetFailed = Int(CURLE_SSL_ENGINE_SETFAILED.rawValue)
        static let sendError = Int(CURLE_SEND_ERROR.rawValue)
        static let recvError = Int(CURLE_RECV_ERROR.rawValue)
        static let sslCertProblem = Int(CURLE_SSL_CERTPROBLEM.rawValue)
        static let sslCipher = Int(CURLE_SSL_CIPHER.rawValue)
        static let peerFailedVerification = Int(CURLE_PEER_FAILED_VERIFICATION.rawValue)
        static let badContentEncoding = Int(CURLE_BAD_CONTENT_ENCODING.rawValue)
        static let fileSizeExceeded = Int(CURLE_FILESIZE_EXCEEDED.rawValue)
        static let useSSLFailed = Int(CURLE_USE_SSL_FAILED.rawValue)
        static let sendFailRewind = Int(CURLE_SEND_FAIL_REWIND.rawValue)
        static let sslCACertBadFile = Int(CURLE_SSL_CACERT_BADFILE.rawValue)
        static let sslShutdownFailed = Int(CURLE_SSL_SHUTDOWN_FAILED.rawValue)
        static let sslCRLBadFile = Int(CURLE_SSL_CRL_BADFILE.rawValue)
        static let sslIssuerError = Int(CURLE_SSL_ISSUER_ERROR.rawValue)
        static let http2Stream = Int(CURLE_HTTP2_STREAM.rawValue)
        static let http3 = Int(CURLE_HTTP3.rawValue)
        static let quicConnectError = Int(CURLE_QUIC_CONNECT_ERROR.rawValue)
        static let proxy = Int(CURLE_PROXY.rawValue)
        static let sslPinnedPublicKeyMismatch = Int(CURLE_SSL_PINNEDPUBKEYNOTMATCH.rawValue)
        // 7.77, 7.84, 8.6 and 8.8: CCurl.h gives their numbers on an older libcurl, which never
        // returns them.
        static let sslClientCert = Int(ccurl_code_ssl_clientcert)
        static let unrecoverablePoll = Int(ccurl_code_unrecoverable_poll)
        static let tooLarge = Int(ccurl_code_too_large)
        static let echRequired = Int(ccurl_code_ech_required)
    }

    /// libcurl's generic text for a code, used when the error buffer is empty.
    package static func message(forCode code: Int) -> String {
        easyMessage(CURLcode(UInt32(truncatingIfNeeded: code)))
    }

    static func easyMessage(_ code: CURLcode) -> String {
        guard let text = curl_easy_strerror(code) else { return "CURLcode \(code.rawValue)" }
        return String(cString: text)
    }
}
