internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// The one file that calls libcurl.
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
            return CurlFeatures(versionNumber: 0, zlib: false, brotli: false, zstd: false, http2: false)
        }
        let bits = info.pointee.features
        return CurlFeatures(
            versionNumber: Int(info.pointee.version_num),
            zlib: bits & ccurl_feature_libz != 0,
            brotli: bits & ccurl_feature_brotli != 0,
            zstd: bits & ccurl_feature_zstd != 0,
            http2: bits & ccurl_feature_http2 != 0
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
        // 7.77 and 7.84: CCurl.h gives their numbers on an older libcurl, which never returns them.
        static let sslClientCert = Int(ccurl_code_ssl_clientcert)
        static let unrecoverablePoll = Int(ccurl_code_unrecoverable_poll)
    }

    /// libcurl's generic text for a code, used when the error buffer is empty.
    package static func message(forCode code: Int) -> String {
        easyMessage(CURLcode(UInt32(truncatingIfNeeded: code)))
    }

    private static func easyMessage(_ code: CURLcode) -> String {
        guard let text = curl_easy_strerror(code) else { return "CURLcode \(code.rawValue)" }
        return String(cString: text)
    }

    private static func multiMessage(_ code: CURLMcode) -> String {
        guard let text = curl_multi_strerror(code) else { return "CURLMcode \(code.rawValue)" }
        return String(cString: text)
    }

    // MARK: - Easy options

    /// A `CURLoption`, named for what CourierCurl uses it for.
    struct EasyOption: Sendable {
        fileprivate let value: CURLoption
        let name: StaticString

        fileprivate init(_ value: CURLoption, _ name: StaticString) {
            self.value = value
            self.name = name
        }

        static let url = EasyOption(CURLOPT_URL, "CURLOPT_URL")
        static let privateData = EasyOption(CURLOPT_PRIVATE, "CURLOPT_PRIVATE")
        static let errorBuffer = EasyOption(CURLOPT_ERRORBUFFER, "CURLOPT_ERRORBUFFER")
        static let noSignal = EasyOption(CURLOPT_NOSIGNAL, "CURLOPT_NOSIGNAL")
        static let followLocation = EasyOption(CURLOPT_FOLLOWLOCATION, "CURLOPT_FOLLOWLOCATION")
        static let netrc = EasyOption(CURLOPT_NETRC, "CURLOPT_NETRC")
        static let proxy = EasyOption(CURLOPT_PROXY, "CURLOPT_PROXY")
        static let sslVerifyPeer = EasyOption(CURLOPT_SSL_VERIFYPEER, "CURLOPT_SSL_VERIFYPEER")
        static let sslVerifyHost = EasyOption(CURLOPT_SSL_VERIFYHOST, "CURLOPT_SSL_VERIFYHOST")
        static let caInfo = EasyOption(CURLOPT_CAINFO, "CURLOPT_CAINFO")
        static let acceptEncoding = EasyOption(CURLOPT_ACCEPT_ENCODING, "CURLOPT_ACCEPT_ENCODING")
        static let httpHeader = EasyOption(CURLOPT_HTTPHEADER, "CURLOPT_HTTPHEADER")
        static let httpGet = EasyOption(CURLOPT_HTTPGET, "CURLOPT_HTTPGET")
        static let noBody = EasyOption(CURLOPT_NOBODY, "CURLOPT_NOBODY")
        static let post = EasyOption(CURLOPT_POST, "CURLOPT_POST")
        static let postFieldSize = EasyOption(CURLOPT_POSTFIELDSIZE_LARGE, "CURLOPT_POSTFIELDSIZE_LARGE")
        static let customRequest = EasyOption(CURLOPT_CUSTOMREQUEST, "CURLOPT_CUSTOMREQUEST")
        static let writeFunction = EasyOption(CURLOPT_WRITEFUNCTION, "CURLOPT_WRITEFUNCTION")
        static let readFunction = EasyOption(CURLOPT_READFUNCTION, "CURLOPT_READFUNCTION")
        static let readData = EasyOption(CURLOPT_READDATA, "CURLOPT_READDATA")
        static let seekFunction = EasyOption(CURLOPT_SEEKFUNCTION, "CURLOPT_SEEKFUNCTION")
        static let seekData = EasyOption(CURLOPT_SEEKDATA, "CURLOPT_SEEKDATA")
        static let writeData = EasyOption(CURLOPT_WRITEDATA, "CURLOPT_WRITEDATA")
        static let headerFunction = EasyOption(CURLOPT_HEADERFUNCTION, "CURLOPT_HEADERFUNCTION")
        static let headerData = EasyOption(CURLOPT_HEADERDATA, "CURLOPT_HEADERDATA")
        static let connectTimeoutMilliseconds = EasyOption(CURLOPT_CONNECTTIMEOUT_MS, "CURLOPT_CONNECTTIMEOUT_MS")
        static let timeoutMilliseconds = EasyOption(CURLOPT_TIMEOUT_MS, "CURLOPT_TIMEOUT_MS")
        static let lowSpeedLimit = EasyOption(CURLOPT_LOW_SPEED_LIMIT, "CURLOPT_LOW_SPEED_LIMIT")
        static let lowSpeedTime = EasyOption(CURLOPT_LOW_SPEED_TIME, "CURLOPT_LOW_SPEED_TIME")
        static let noProgress = EasyOption(CURLOPT_NOPROGRESS, "CURLOPT_NOPROGRESS")
        static let bufferSize = EasyOption(CURLOPT_BUFFERSIZE, "CURLOPT_BUFFERSIZE")
        static let uploadBufferSize = EasyOption(CURLOPT_UPLOAD_BUFFERSIZE, "CURLOPT_UPLOAD_BUFFERSIZE")
        static let postFields = EasyOption(CURLOPT_POSTFIELDS, "CURLOPT_POSTFIELDS")
        static let progressFunction = EasyOption(CURLOPT_XFERINFOFUNCTION, "CURLOPT_XFERINFOFUNCTION")
        static let progressData = EasyOption(CURLOPT_XFERINFODATA, "CURLOPT_XFERINFODATA")
        // Where a request goes: proxies, Unix sockets, DNS overrides (CurlTransport+Route.swift).
        static let proxyUsername = EasyOption(CURLOPT_PROXYUSERNAME, "CURLOPT_PROXYUSERNAME")
        static let proxyPassword = EasyOption(CURLOPT_PROXYPASSWORD, "CURLOPT_PROXYPASSWORD")
        static let noProxy = EasyOption(CURLOPT_NOPROXY, "CURLOPT_NOPROXY")
        static let unixSocketPath = EasyOption(CURLOPT_UNIX_SOCKET_PATH, "CURLOPT_UNIX_SOCKET_PATH")
        static let resolve = EasyOption(CURLOPT_RESOLVE, "CURLOPT_RESOLVE")
        static let connectTo = EasyOption(CURLOPT_CONNECT_TO, "CURLOPT_CONNECT_TO")
        // HTTP/2 and TLS identity (CurlEasyHandle+HTTPVersionAndTLS.swift).
        static let httpVersion = EasyOption(CURLOPT_HTTP_VERSION, "CURLOPT_HTTP_VERSION")
        static let pipeWait = EasyOption(CURLOPT_PIPEWAIT, "CURLOPT_PIPEWAIT")
        static let freshConnect = EasyOption(CURLOPT_FRESH_CONNECT, "CURLOPT_FRESH_CONNECT")
        static let forbidReuse = EasyOption(CURLOPT_FORBID_REUSE, "CURLOPT_FORBID_REUSE")
        static let caPath = EasyOption(CURLOPT_CAPATH, "CURLOPT_CAPATH")
        static let sslCertificate = EasyOption(CURLOPT_SSLCERT, "CURLOPT_SSLCERT")
        static let sslKey = EasyOption(CURLOPT_SSLKEY, "CURLOPT_SSLKEY")
        static let keyPassword = EasyOption(CURLOPT_KEYPASSWD, "CURLOPT_KEYPASSWD")
        static let pinnedPublicKey = EasyOption(CURLOPT_PINNEDPUBLICKEY, "CURLOPT_PINNEDPUBLICKEY")
        static let sslVersion = EasyOption(CURLOPT_SSLVERSION, "CURLOPT_SSLVERSION")
    }

    /// CURLOPT_HTTP_VERSION values.
    enum HTTPVersionValue {
        static let http1_1 = Int(ccurl_http_version_1_1)
        static let http2OverTLS = Int(ccurl_http_version_2tls)
        static let http2PriorKnowledge = Int(ccurl_http_version_2_prior_knowledge)
    }

    /// CURLMOPT_PIPELINING values: `CURLPIPE_NOTHING` or `CURLPIPE_MULTIPLEX`.
    static let pipeNothing = Int(ccurl_pipe_nothing)
    static let pipeMultiplex = Int(ccurl_pipe_multiplex)

    /// CURLOPT_SSLVERSION values: the lowest TLS version offered.
    enum TLSVersionValue {
        static let tls1_2 = Int(ccurl_sslversion_tls1_2)
        static let tls1_3 = Int(ccurl_sslversion_tls1_3)
    }

    /// `CURL_NETRC_IGNORED`: never read `~/.netrc`.
    static let netrcIgnored = Int(ccurl_netrc_ignored)

    static func easyInit() throws(CurlError) -> EasyPointer {
        if let error = globalInitError { throw error }
        guard let easy = curl_easy_init() else {
            throw CurlError(kind: .handleCreation, curlCode: Code.outOfMemory, message: "curl_easy_init returned NULL")
        }
        return easy
    }

    static func easyCleanup(_ easy: EasyPointer) {
        curl_easy_cleanup(easy)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, _ value: Int) throws(CurlError) {
        try check(ccurl_easy_setopt_long(easy, option.value, value), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, int64 value: Int64) throws(CurlError) {
        try check(ccurl_easy_setopt_off_t(easy, option.value, curl_off_t(value)), option)
    }

    /// For options libcurl copies, so `value` need not outlive the call.
    static func set(_ easy: EasyPointer, _ option: EasyOption, _ value: String) throws(CurlError) {
        let code = value.withCString { ccurl_easy_setopt_string(easy, option.value, $0) }
        try check(code, option)
    }

    /// For options libcurl keeps without copying: the caller keeps `value` alive until the
    /// handle is reset or cleaned up.
    static func set(_ easy: EasyPointer, _ option: EasyOption, pointer value: UnsafeMutableRawPointer?) throws(CurlError) {
        try check(ccurl_easy_setopt_pointer(easy, option.value, value), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, list value: StringListPointer?) throws(CurlError) {
        let list = UnsafeMutablePointer<curl_slist>(value)
        try check(ccurl_easy_setopt_slist(easy, option.value, list), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, callback value: WriteCallback) throws(CurlError) {
        try check(ccurl_easy_setopt_write_callback(easy, option.value, value), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, readCallback value: ReadCallback) throws(CurlError) {
        try check(ccurl_easy_setopt_read_callback(easy, option.value, value), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, callback value: SeekCallback) throws(CurlError) {
        try check(ccurl_easy_setopt_seek_callback(easy, option.value, value), option)
    }

    static func set(_ easy: EasyPointer, _ option: EasyOption, callback value: ProgressCallback) throws(CurlError) {
        try check(ccurl_easy_setopt_xferinfo_callback(easy, option.value, value), option)
    }

    /// Lets `easy` speak http and https only, on redirects too: CURLOPT_PROTOCOLS_STR and
    /// CURLOPT_REDIR_PROTOCOLS_STR from libcurl 7.85, the bitmask options they replaced before
    /// (CCurl.h picks at compile time).
    static func allowOnlyHTTP(_ easy: EasyPointer) throws(CurlError) {
        var failed: UnsafePointer<CChar>?
        let code = ccurl_easy_setopt_http_only(easy, &failed)
        guard code != CURLE_OK else { return }
        let option = failed.map { String(cString: $0) } ?? "CURLOPT_PROTOCOLS"
        throw CurlError(kind: .option, curlCode: Int(code.rawValue), message: "\(option): \(easyMessage(code))")
    }

    private static func check(_ code: CURLcode, _ option: EasyOption) throws(CurlError) {
        guard code != CURLE_OK else { return }
        throw CurlError(kind: .option, curlCode: Int(code.rawValue), message: "\(option.name): \(easyMessage(code))")
    }

    // MARK: - Easy info

    /// CURLINFO_PRIVATE: the pointer stored with CURLOPT_PRIVATE.
    static func privateData(_ easy: EasyPointer) -> UnsafeMutableRawPointer? {
        var value: UnsafeMutableRawPointer?
        guard ccurl_easy_getinfo_pointer(easy, CURLINFO_PRIVATE, &value) == CURLE_OK else { return nil }
        return value
    }

    /// CURLINFO_CONTENT_LENGTH_DOWNLOAD_T: the response's Content-Length, or nil when unknown.
    static func contentLength(_ easy: EasyPointer) -> Int64? {
        var value: curl_off_t = -1
        guard ccurl_easy_getinfo_off_t(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &value) == CURLE_OK,
              value >= 0 else { return nil }
        return Int64(value)
    }

    /// CURLINFO_ACTIVESOCKET: the socket the transfer's connection uses, nil when it has none.
    static func activeSocket(_ easy: EasyPointer) -> Int32? {
        var value: curl_socket_t = CURL_SOCKET_BAD
        guard ccurl_easy_getinfo_socket(easy, CURLINFO_ACTIVESOCKET, &value) == CURLE_OK,
              value != CURL_SOCKET_BAD else { return nil }
        return value
    }

    /// Whether bytes wait unread in `socket`'s receive queue: a one-byte `MSG_PEEK` that does
    /// not block and takes nothing.
    static func hasUnreadBytes(socket: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(socket, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// CURLINFO_OS_ERRNO: the errno of the last failed connect, 0 if none.
    static func osErrno(_ easy: EasyPointer) -> Int32 {
        var value = 0
        guard ccurl_easy_getinfo_long(easy, CURLINFO_OS_ERRNO, &value) == CURLE_OK else { return 0 }
        return Int32(truncatingIfNeeded: value)
    }

    /// CURLINFO_HTTP_CONNECTCODE: the status a proxy answered CONNECT with, 0 when there was none.
    static func proxyConnectStatus(_ easy: EasyPointer) -> Int {
        long(easy, CURLINFO_HTTP_CONNECTCODE) ?? 0
    }

    /// CURLINFO_PROXY_ERROR: libcurl's detail for a `CURLE_PROXY` failure (SOCKS, mostly).
    static func proxyError(_ easy: EasyPointer) -> ProxyError {
        guard let value = long(easy, CURLINFO_PROXY_ERROR) else { return .other }
        switch CURLproxycode(UInt32(truncatingIfNeeded: value)) {
        case CURLPX_USER_REJECTED, CURLPX_NO_AUTH, CURLPX_RECV_AUTH, CURLPX_SEND_AUTH: return .authentication
        case CURLPX_RESOLVE_HOST: return .unresolvedTarget
        case CURLPX_REPLY_CONNECTION_REFUSED, CURLPX_REPLY_HOST_UNREACHABLE, CURLPX_REPLY_NETWORK_UNREACHABLE,
             CURLPX_REPLY_TTL_EXPIRED:
            return .unreachableTarget
        case CURLPX_REPLY_NOT_ALLOWED: return .refusedByRule
        default: return .other
        }
    }

    /// The `CURLproxycode` families CourierCurl tells apart.
    enum ProxyError: Sendable, Equatable {
        /// The proxy wants credentials, or refused the ones given.
        case authentication
        /// A SOCKS proxy could not resolve the target's name (socks5h), or libcurl could not (socks5).
        case unresolvedTarget
        /// The proxy could not reach the target: refused, unreachable or timed out.
        case unreachableTarget
        /// The proxy's rules forbid this target.
        case refusedByRule
        case other
    }

    /// What libcurl measured of one transfer, as it reports it: times in microseconds from the
    /// start of the transfer, nil where libcurl has no value. Read by ``transferInfo(_:)``.
    struct TransferInfo: Sendable {
        /// CURLINFO_QUEUE_TIME_T (libcurl 8.6 and later).
        var queued: Int64?
        /// CURLINFO_NAMELOOKUP_TIME_T.
        var nameLookup: Int64?
        /// CURLINFO_CONNECT_TIME_T: 0 when no connection was made for this transfer.
        var connect: Int64?
        /// CURLINFO_APPCONNECT_TIME_T: 0 when no TLS handshake was made for this transfer.
        var appConnect: Int64?
        /// CURLINFO_PRETRANSFER_TIME_T.
        var preTransfer: Int64?
        /// CURLINFO_STARTTRANSFER_TIME_T: 0 when no byte of the response arrived.
        var startTransfer: Int64?
        /// CURLINFO_TOTAL_TIME_T.
        var total: Int64?
        /// CURLINFO_NUM_CONNECTS: connections this transfer opened (0 when it reused one).
        var newConnections: Int?
        /// CURLINFO_PRIMARY_IP and CURLINFO_PRIMARY_PORT.
        var remoteIP: String?
        var remotePort: Int?
        /// CURLINFO_LOCAL_IP and CURLINFO_LOCAL_PORT.
        var localIP: String?
        var localPort: Int?
        /// CURLINFO_REQUEST_SIZE: the request head sent (a body read through the read callback
        /// is not in it).
        var requestSize: Int?
        /// CURLINFO_SIZE_UPLOAD_T: request body bytes sent, chunk framing included.
        var uploaded: Int64?
        /// CURLINFO_HEADER_SIZE: every header byte received, interim responses included.
        var headerSize: Int?
        /// CURLINFO_SIZE_DOWNLOAD_T: body bytes received before content decoding (chunk framing
        /// removed): libcurl counts them ahead of its decoders.
        var downloaded: Int64?
    }

    /// Reads what libcurl measured of the transfer that ran on `easy`: one `curl_easy_getinfo`
    /// per value and no other work, so it costs the same whatever the body's size. Call it
    /// once the transfer ended and before the handle runs another.
    static func transferInfo(_ easy: EasyPointer) -> TransferInfo {
        var info = TransferInfo()
        var value: curl_off_t = 0
        if ccurl_easy_getinfo_queue_time(easy, &value) == CURLE_OK { info.queued = Int64(value) }
        info.nameLookup = offT(easy, CURLINFO_NAMELOOKUP_TIME_T)
        info.connect = offT(easy, CURLINFO_CONNECT_TIME_T)
        info.appConnect = offT(easy, CURLINFO_APPCONNECT_TIME_T)
        info.preTransfer = offT(easy, CURLINFO_PRETRANSFER_TIME_T)
        info.startTransfer = offT(easy, CURLINFO_STARTTRANSFER_TIME_T)
        info.total = offT(easy, CURLINFO_TOTAL_TIME_T)
        info.newConnections = long(easy, CURLINFO_NUM_CONNECTS)
        info.remoteIP = string(easy, CURLINFO_PRIMARY_IP)
        info.remotePort = long(easy, CURLINFO_PRIMARY_PORT)
        info.localIP = string(easy, CURLINFO_LOCAL_IP)
        info.localPort = long(easy, CURLINFO_LOCAL_PORT)
        info.requestSize = long(easy, CURLINFO_REQUEST_SIZE)
        info.uploaded = offT(easy, CURLINFO_SIZE_UPLOAD_T)
        info.headerSize = long(easy, CURLINFO_HEADER_SIZE)
        info.downloaded = offT(easy, CURLINFO_SIZE_DOWNLOAD_T)
        return info
    }

    private static func offT(_ easy: EasyPointer, _ info: CURLINFO) -> Int64? {
        var value: curl_off_t = 0
        guard ccurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK else { return nil }
        return Int64(value)
    }

    private static func long(_ easy: EasyPointer, _ info: CURLINFO) -> Int? {
        var value = 0
        guard ccurl_easy_getinfo_long(easy, info, &value) == CURLE_OK else { return nil }
        return value
    }

    /// nil for a NULL or empty string: libcurl reports "" for an address it never learnt.
    private static func string(_ easy: EasyPointer, _ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard ccurl_easy_getinfo_string(easy, info, &value) == CURLE_OK,
              let value, value.pointee != 0 else { return nil }
        return String(cString: value)
    }

    // MARK: - String lists

    /// Builds a `curl_slist`; the caller frees it with ``freeList(_:)`` once no handle uses it.
    static func makeList(_ lines: [String]) throws(CurlError) -> StringListPointer? {
        var list: UnsafeMutablePointer<curl_slist>?
        for line in lines {
            guard let next = line.withCString({ curl_slist_append(list, $0) }) else {
                curl_slist_free_all(list)
                throw CurlError(kind: .handleCreation, curlCode: Code.outOfMemory, message: "curl_slist_append returned NULL")
            }
            list = next
        }
        return list.map(OpaquePointer.init)
    }

    static func freeList(_ list: StringListPointer?) {
        curl_slist_free_all(UnsafeMutablePointer<curl_slist>(list))
    }

    // MARK: - Multi

    struct MultiOption: Sendable {
        fileprivate let value: CURLMoption
        let name: StaticString

        static let maxHostConnections = MultiOption(value: CURLMOPT_MAX_HOST_CONNECTIONS, name: "CURLMOPT_MAX_HOST_CONNECTIONS")
        static let maxConnects = MultiOption(value: CURLMOPT_MAXCONNECTS, name: "CURLMOPT_MAXCONNECTS")
        static let pipelining = MultiOption(value: CURLMOPT_PIPELINING, name: "CURLMOPT_PIPELINING")
        static let maxConcurrentStreams = MultiOption(value: CURLMOPT_MAX_CONCURRENT_STREAMS, name: "CURLMOPT_MAX_CONCURRENT_STREAMS")
    }

    static func multiInit() throws(CurlError) -> MultiPointer {
        if let error = globalInitError { throw error }
        guard let multi = curl_multi_init() else {
            throw CurlError(kind: .handleCreation, curlCode: Code.outOfMemory, message: "curl_multi_init returned NULL")
        }
        return multi
    }

    static func multiCleanup(_ multi: MultiPointer) {
        _ = curl_multi_cleanup(multi)
    }

    static func set(_ multi: MultiPointer, _ option: MultiOption, _ value: Int) throws(CurlError) {
        try checkMulti(ccurl_multi_setopt_long(multi, option.value, value), "\(option.name)")
    }

    static func add(_ easy: EasyPointer, to multi: MultiPointer) throws(CurlError) {
        try checkMulti(curl_multi_add_handle(multi, easy), "curl_multi_add_handle")
    }

    /// Never call this from inside a libcurl callback.
    static func remove(_ easy: EasyPointer, from multi: MultiPointer) {
        _ = curl_multi_remove_handle(multi, easy)
    }

    /// `curl_easy_pause` with the directions that stay paused; unpausing may call the handle's
    /// data callbacks before it returns. Never call this from inside a libcurl callback.
    static func pause(_ easy: EasyPointer, receive: Bool, send: Bool) {
        _ = curl_easy_pause(easy, (receive ? ccurl_pause_recv : 0) | (send ? ccurl_pause_send : 0))
    }

    static func perform(_ multi: MultiPointer) throws(CurlError) {
        var running: Int32 = 0
        try checkMulti(curl_multi_perform(multi, &running), "curl_multi_perform")
    }

    /// Sleeps until a socket is ready, libcurl's next timeout, `timeoutMilliseconds`, or
    /// ``wakeup(_:)``, whichever comes first.
    static func poll(_ multi: MultiPointer, timeoutMilliseconds: Int32) throws(CurlError) {
        try checkMulti(curl_multi_poll(multi, nil, 0, timeoutMilliseconds, nil), "curl_multi_poll")
    }

    /// The one libcurl multi call that is safe from any thread.
    static func wakeup(_ multi: MultiPointer) {
        _ = curl_multi_wakeup(multi)
    }

    // MARK: - Multi, event-driven

    /// libcurl's request about one socket (`CURLMOPT_SOCKETFUNCTION`): its `what` argument.
    enum SocketInterest: Equatable, Sendable {
        case none, read, write, readWrite, remove

        init(what: Int32) {
            switch what {
            case ccurl_poll_in: self = .read
            case ccurl_poll_out: self = .write
            case ccurl_poll_inout: self = .readWrite
            case ccurl_poll_remove: self = .remove
            default: self = .none
            }
        }
    }

    typealias SocketCallback = @convention(c) (
        _ easy: EasyPointer?, _ socket: curl_socket_t, _ what: Int32, _ context: UnsafeMutableRawPointer?,
        _ socketContext: UnsafeMutableRawPointer?
    ) -> Int32
    typealias TimerCallback = @convention(c) (
        _ multi: MultiPointer?, _ timeoutMilliseconds: Int, _ context: UnsafeMutableRawPointer?
    ) -> Int32

    /// Has libcurl report, to the two callbacks with `context`, which sockets to watch and when
    /// it must next be called, instead of waiting for them itself in `curl_multi_poll`.
    static func setSocketCallbacks(
        _ multi: MultiPointer, socket: SocketCallback, timer: TimerCallback, context: UnsafeMutableRawPointer
    ) throws(CurlError) {
        try checkMulti(ccurl_multi_setopt_socket_callback(multi, socket), "CURLMOPT_SOCKETFUNCTION")
        try checkMulti(ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, context), "CURLMOPT_SOCKETDATA")
        try checkMulti(ccurl_multi_setopt_timer_callback(multi, timer), "CURLMOPT_TIMERFUNCTION")
        try checkMulti(ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, context), "CURLMOPT_TIMERDATA")
    }

    /// Lets libcurl act on `socket` becoming readable or writable, or, for `nil`, on its timers.
    static func socketAction(_ multi: MultiPointer, socket: Int32?, readable: Bool = false, writable: Bool = false) throws(CurlError) {
        var running: Int32 = 0
        let mask = (readable ? ccurl_cselect_in : 0) | (writable ? ccurl_cselect_out : 0)
        try checkMulti(curl_multi_socket_action(multi, socket ?? ccurl_socket_timeout, mask, &running), "curl_multi_socket_action")
    }

    /// The next finished transfer, or nil when none is left.
    static func nextFinished(_ multi: MultiPointer) -> (easy: EasyPointer, code: Int)? {
        while true {
            var easy: UnsafeMutableRawPointer?
            var result = CURLE_OK
            switch ccurl_multi_info_read_done(multi, &easy, &result) {
            case 0:
                return nil
            case 1:
                guard let easy else { continue }
                return (easy, Int(result.rawValue))
            default:
                continue
            }
        }
    }

    private static func checkMulti(_ code: CURLMcode, _ what: String) throws(CurlError) {
        guard code != CURLM_OK else { return }
        throw CurlError(kind: .multi, curlCode: Int(code.rawValue), message: "\(what): \(multiMessage(code))")
    }
}
