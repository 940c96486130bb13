/// One libcurl easy handle and the error buffer libcurl writes its messages into.
///
/// Lives on the curl thread only. Reused across transfers: ``reset()`` returns every option to
/// its default, so ``configure(for:configuration:)`` sets everything each time.
final class CurlEasyHandle {
    let pointer: Curl.EasyPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>

    init() throws(CurlError) {
        pointer = try Curl.easyInit()
        errorBuffer = .allocate(capacity: Curl.errorBufferSize)
        errorBuffer.initialize(repeating: 0, count: Curl.errorBufferSize)
    }

    deinit {
        Curl.easyCleanup(pointer)
        errorBuffer.deallocate()
    }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String? {
        errorBuffer[0] == 0 ? nil : String(cString: errorBuffer)
    }

    /// Back to libcurl's defaults; connections and caches stay with the multi handle.
    func reset() {
        Curl.easyReset(pointer)
        errorBuffer[0] = 0
    }

    /// Sets every option the transfer needs; safe defaults first, then the request.
    func configure(for transfer: CurlTransfer, configuration: CurlTransport.Configuration) throws(CurlError) {
        let easy = pointer
        let plan = transfer.plan
        try Curl.set(easy, .errorBuffer, pointer: UnsafeMutableRawPointer(errorBuffer))
        // Safe defaults (issue 4, item 7).
        try Curl.set(easy, .noSignal, 1)
        try Curl.set(easy, .protocols, "http,https")
        try Curl.set(easy, .redirectProtocols, "http,https")
        try Curl.set(easy, .followLocation, 0)
        try Curl.set(easy, .netrc, Curl.netrcIgnored)
        try Curl.set(easy, .proxy, configuration.proxy ?? "")
        try Curl.set(easy, .sslVerifyPeer, configuration.verifiesPeer ? 1 : 0)
        try Curl.set(easy, .sslVerifyHost, configuration.verifiesHost ? 2 : 0)
        if let path = configuration.caBundlePath {
            try Curl.set(easy, .caInfo, path)
        }
        // "" = every encoding this libcurl decodes, announced and decoded as URLSession does.
        try Curl.set(easy, .acceptEncoding, "")

        // The request.
        try Curl.set(easy, .url, plan.url.absoluteString)
        switch plan.shape {
        case .head:
            try Curl.set(easy, .noBody, 1)
        case .withoutBody(let customMethod):
            try Curl.set(easy, .httpGet, 1)
            if let customMethod { try Curl.set(easy, .customRequest, customMethod) }
        case .withBody(let customMethod):
            let storage = transfer.makeBodyStorage()
            try Curl.set(easy, .post, 1)
            try Curl.set(easy, .postFields, pointer: storage.baseAddress)
            try Curl.set(easy, .postFieldSize, int64: Int64(plan.body.count))
            if let customMethod { try Curl.set(easy, .customRequest, customMethod) }
        }
        if transfer.headerList == nil {
            transfer.headerList = try Curl.makeList(plan.headerLines)
        }
        try Curl.set(easy, .httpHeader, list: transfer.headerList)

        // URLSession's timeoutInterval is an idle timeout: fail after that long below 1 byte/s.
        try Curl.set(easy, .lowSpeedLimit, 1)
        try Curl.set(easy, .lowSpeedTime, plan.idleTimeoutSeconds)
        try Curl.set(easy, .connectTimeoutMilliseconds, plan.connectTimeoutMilliseconds)
        if let total = plan.totalTimeoutMilliseconds {
            try Curl.set(easy, .timeoutMilliseconds, total)
        }

        let context = Unmanaged.passUnretained(transfer).toOpaque()
        try Curl.set(easy, .privateData, pointer: context)
        try Curl.set(easy, .writeFunction, callback: CurlTransfer.bodyCallback)
        try Curl.set(easy, .writeData, pointer: context)
        try Curl.set(easy, .headerFunction, callback: CurlTransfer.headerCallback)
        try Curl.set(easy, .headerData, pointer: context)
        try Curl.set(easy, .noProgress, 0)
        try Curl.set(easy, .progressFunction, callback: CurlTransfer.progressCallback)
        try Curl.set(easy, .progressData, pointer: context)
        transfer.startIdleClock()
        transfer.easy = easy
    }
}
