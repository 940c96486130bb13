/// One libcurl easy handle and the error buffer libcurl writes its messages into.
///
/// Lives on the curl thread only. Reused across transfers without `curl_easy_reset`: the
/// transport's settings are applied once, when the handle is made, and ``prepare(for:)`` sets
/// every per-request option on every request, back to its default where the request does not
/// need it, so nothing of one request carries over to the next. Resetting and re-applying
/// everything cost a dozen allocations per request (libcurl copies every string option).
final class CurlEasyHandle {
    let pointer: Curl.EasyPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Decides, per request, whether connections may be reused (`CURLOPT_FRESH_CONNECT`).
    private let httpVersion: CurlTransport.HTTPVersionPreference
    /// The `CURLOPT_RESOLVE` and `CURLOPT_CONNECT_TO` lists, which libcurl reads without
    /// copying, kept for as long as the handle.
    private var routeLists: [CurlHeaderList] = []
    /// The `CURLOPT_UNIX_SOCKET_PATH` last set, so it is set again only when a request changes it.
    private var socketPath: String?
    /// The `CURLOPT_URL` libcurl holds: set again only when a request goes elsewhere, since
    /// libcurl copies the string each time and keeps it across transfers.
    private var url: String?
    /// Whether `CURLOPT_POSTFIELDS` points into the current transfer's body.
    private var hasPostFields = false
    /// Whether the connection options let this request share connections (libcurl's default),
    /// so they are set only when a request needs the other value.
    private var reusesConnections = true
    /// The buffer sizes last set (libcurl's defaults until then), so each is set only when a
    /// request needs another.
    private var receiveBufferSize = CurlBufferSizes.libcurlReceiveDefault
    private var uploadBufferSize = CurlBufferSizes.libcurlUploadDefault
    /// The transport's Alt-Svc cache file, which this handle read when it was made (see
    /// CurlEasyHandle+AltSvc.swift); nil when the transport keeps no cache.
    let altSvcFile: CurlAltSvcFile?
    /// The file's generation when this handle read it.
    var altSvcGeneration = 0
    /// Whether this handle's cache holds an answer the file lacks, so that it writes the file
    /// when it goes and is not pooled again.
    var holdsNewAltSvc = false

    /// Makes a handle with the transport's settings: TLS, decoding, the callbacks, and defaults
    /// that stop libcurl doing on its own what a caller of URLSession never asked for — no
    /// signals in a multithreaded process, no scheme but http and https (on redirects too), no
    /// redirect followed inside libcurl (the transport follows them so that it can strip
    /// credentials across origins), no credentials from `~/.netrc`, and no proxy from the
    /// environment unless the configuration asks for it (see CurlEasyHandle+Route.swift).
    init(configuration: CurlTransport.Configuration, altSvcFile: CurlAltSvcFile? = nil) throws(CurlError) {
        pointer = try Curl.easyInit()
        httpVersion = configuration.httpVersion
        self.altSvcFile = altSvcFile
        errorBuffer = .allocate(capacity: Curl.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: Curl.errorBufferSize)
        let easy = pointer
        try Curl.set(easy, .errorBuffer, pointer: UnsafeMutableRawPointer(errorBuffer))
        try Curl.set(easy, .noSignal, 1)
        try Curl.allowOnlyHTTP(easy)
        try Curl.set(easy, .followLocation, 0)
        try Curl.set(easy, .netrc, Curl.netrcIgnored)
        routeLists = try Self.applyRoute(configuration, to: easy)
        try Curl.set(easy, .sslVerifyPeer, configuration.verifiesPeer ? 1 : 0)
        try Curl.set(easy, .sslVerifyHost, configuration.verifiesPeer ? 2 : 0)
        if let path = configuration.caBundlePath {
            try Curl.set(easy, .caInfo, path)
        }
        try Self.applyHTTPVersionAndTLSIdentity(configuration, to: easy)
        try readAltSvcFile()
        // "" = every coding this libcurl decodes (CurlFeatures.acceptEncoding), announced and
        // decoded as URLSession does; one it lacks is never offered, and a response in it fails
        // with .cannotDecodeContentData.
        try Curl.set(easy, .acceptEncoding, "")
        // URLSession's timeoutInterval is an idle timeout: with `lowSpeedTime` per request,
        // libcurl fails a transfer that stays below 1 byte/s that long.
        try Curl.set(easy, .lowSpeedLimit, 1)
        try Curl.set(easy, .writeFunction, callback: CurlTransfer.bodyCallback)
        try Curl.set(easy, .headerFunction, callback: CurlTransfer.headerCallback)
        // Request bodies are read from the request's Data as libcurl sends them; without a
        // read function libcurl would read a POST body from stdin.
        try Curl.set(easy, .readFunction, readCallback: CurlTransfer.readCallback)
        try Curl.set(easy, .seekFunction, callback: CurlTransfer.seekCallback)
        try Curl.set(easy, .noProgress, 0)
        try Curl.set(easy, .progressFunction, callback: CurlTransfer.progressCallback)
    }

    deinit {
        let wrote = prepareAltSvcForCleanup()
        Curl.easyCleanup(pointer)
        if wrote { altSvcFile?.didWrite() }
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    /// Sets every per-request option. Each is set on every request, so a handle that last ran
    /// a HEAD, a POST with a body or a custom method carries none of it into this one.
    func prepare(for transfer: CurlTransfer) throws(CurlError) {
        let easy = pointer
        let plan = transfer.plan
        errorBuffer[0] = 0
        let url = plan.wireURL.absoluteString
        if url != self.url {
            self.url = nil
            try Curl.set(easy, .url, url)
            self.url = url
        }
        if plan.unixSocketPath != socketPath {
            try Self.setUnixSocketPath(plan.unixSocketPath, on: easy)
            socketPath = plan.unixSocketPath
        }
        // A body comes from the read callback, or for a large Data body from CURLOPT_POSTFIELDS
        // (see CurlTransfer.borrowedBody()), its size announced as Content-Length, or chunked
        // when a stream's size is unknown. That option is set before the method options, since
        // setting it makes the method POST.
        let postFields = transfer.borrowedBody()
        if postFields != nil || hasPostFields {
            hasPostFields = false
            try Curl.set(easy, .postFields, pointer: postFields)
            hasPostFields = postFields != nil
        }
        switch plan.shape {
        case .head:
            try Curl.set(easy, .postFieldSize, int64: -1)
            try Curl.set(easy, .noBody, 1)
            try Curl.set(easy, .customRequest, pointer: nil)
        case .withoutBody(let customMethod):
            try Curl.set(easy, .postFieldSize, int64: -1)
            // Also turns CURLOPT_NOBODY off.
            try Curl.set(easy, .httpGet, 1)
            try setCustomMethod(customMethod)
        case .withBody(let customMethod):
            try Curl.set(easy, .postFieldSize, int64: plan.uploadLength)
            // Also turns CURLOPT_NOBODY off.
            try Curl.set(easy, .post, 1)
            try setCustomMethod(customMethod)
        }
        try Curl.set(easy, .httpHeader, list: transfer.headerList.pointer)
        setBufferSizes(CurlBufferSizes(for: transfer))
        try Curl.set(easy, .lowSpeedTime, plan.idleTimeoutSeconds)
        try Curl.set(easy, .connectTimeoutMilliseconds, plan.connectTimeoutMilliseconds)
        try Curl.set(easy, .pipeWait, plan.multiplexes ? 1 : 0)
        let reusesConnections = httpVersion.reusesConnections(scheme: plan.scheme)
        if reusesConnections != self.reusesConnections {
            try Curl.set(easy, .freshConnect, reusesConnections ? 0 : 1)
            try Curl.set(easy, .forbidReuse, reusesConnections ? 0 : 1)
            self.reusesConnections = reusesConnections
        }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        try Curl.set(easy, .privateData, pointer: context)
        try Curl.set(easy, .writeData, pointer: context)
        try Curl.set(easy, .headerData, pointer: context)
        try Curl.set(easy, .readData, pointer: context)
        try Curl.set(easy, .seekData, pointer: context)
        try Curl.set(easy, .progressData, pointer: context)
        transfer.startIdleClock()
        transfer.easy = easy
    }

    /// Forgets the pointers into a transfer that has ended (its header list and the transfer
    /// itself), so an idle handle holds nothing that may be freed under it.
    /// libcurl reads none of them outside a transfer; this keeps it that way by construction.
    func detach() {
        let easy = pointer
        // Setting a pointer option cannot fail; there is nothing to report if it did.
        try? Curl.set(easy, .httpHeader, list: nil)
        try? Curl.set(easy, .privateData, pointer: nil)
        try? Curl.set(easy, .writeData, pointer: nil)
        try? Curl.set(easy, .headerData, pointer: nil)
        try? Curl.set(easy, .readData, pointer: nil)
        try? Curl.set(easy, .seekData, pointer: nil)
        try? Curl.set(easy, .progressData, pointer: nil)
        if hasPostFields {
            // The body belonged to the transfer; the next one sets its own.
            hasPostFields = (try? Curl.set(easy, .postFields, pointer: nil)) == nil
        }
    }

    /// libcurl 7.88 allocates both buffers for each transfer and frees them when it ends, so
    /// sizing them per transfer costs nothing. A size that cannot be set is not an error: libcurl
    /// refuses `CURLOPT_BUFFERSIZE` while a buffer is still allocated (a transfer that ended on a
    /// connection other transfers still multiplex keeps it), and the transfer then runs with the
    /// size it has.
    private func setBufferSizes(_ sizes: CurlBufferSizes) {
        if sizes.receive != receiveBufferSize, (try? Curl.set(pointer, .bufferSize, sizes.receive)) != nil {
            receiveBufferSize = sizes.receive
        }
        if sizes.upload != uploadBufferSize, (try? Curl.set(pointer, .uploadBufferSize, sizes.upload)) != nil {
            uploadBufferSize = sizes.upload
        }
    }

    private func setCustomMethod(_ method: String?) throws(CurlError) {
        if let method {
            try Curl.set(pointer, .customRequest, method)
        } else {
            try Curl.set(pointer, .customRequest, pointer: nil)
        }
    }
}
