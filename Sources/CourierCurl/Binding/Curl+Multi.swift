internal import CCurl

extension Curl {
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

    /// Stops libcurl calling the callbacks ``setSocketCallbacks(_:socket:timer:context:)`` set:
    /// for a multi handle that nobody drives any more but that still holds an easy handle.
    static func clearSocketCallbacks(_ multi: MultiPointer) {
        _ = ccurl_multi_setopt_socket_callback(multi, nil)
        _ = ccurl_multi_setopt_timer_callback(multi, nil)
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_SOCKETDATA, nil)
        _ = ccurl_multi_setopt_pointer(multi, CURLMOPT_TIMERDATA, nil)
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

    private static func multiMessage(_ code: CURLMcode) -> String {
        guard let text = curl_multi_strerror(code) else { return "CURLMcode \(code.rawValue)" }
        return String(cString: text)
    }
}
