internal import CCurl

extension Curl {
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
        static let dohURL = EasyOption(CURLOPT_DOH_URL, "CURLOPT_DOH_URL")
        static let dohSSLVerifyPeer = EasyOption(CURLOPT_DOH_SSL_VERIFYPEER, "CURLOPT_DOH_SSL_VERIFYPEER")
        static let dohSSLVerifyHost = EasyOption(CURLOPT_DOH_SSL_VERIFYHOST, "CURLOPT_DOH_SSL_VERIFYHOST")
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
        static let altSvcControl = EasyOption(CURLOPT_ALTSVC_CTRL, "CURLOPT_ALTSVC_CTRL")
        static let altSvc = EasyOption(CURLOPT_ALTSVC, "CURLOPT_ALTSVC")
        // For a connection the caller speaks on itself (a WebSocket): connect, then hand over.
        static let connectOnly = EasyOption(CURLOPT_CONNECT_ONLY, "CURLOPT_CONNECT_ONLY")
        static let httpProxyTunnel = EasyOption(CURLOPT_HTTPPROXYTUNNEL, "CURLOPT_HTTPPROXYTUNNEL")
    }

    /// CURLOPT_HTTP_VERSION values.
    enum HTTPVersionValue {
        static let http1_1 = Int(ccurl_http_version_1_1)
        static let http2OverTLS = Int(ccurl_http_version_2tls)
        static let http2PriorKnowledge = Int(ccurl_http_version_2_prior_knowledge)
        static let http3 = Int(ccurl_http_version_3)
        static let http3Only = Int(ccurl_http_version_3only)
    }

    /// `CURLOPT_ALTSVC_CTRL`: an Alt-Svc answer may move requests to HTTP/1.1, HTTP/2 or HTTP/3.
    static let altSvcAnyVersion = Int(ccurl_altsvc_h1 | ccurl_altsvc_h2 | ccurl_altsvc_h3)

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
}
