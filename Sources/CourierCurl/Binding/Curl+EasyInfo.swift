internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

extension Curl {
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
}
