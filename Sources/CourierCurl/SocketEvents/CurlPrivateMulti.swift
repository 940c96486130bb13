/// A multi handle of its own for an easy handle that must not share the loop's (a
/// `CURLOPT_CONNECT_ONLY` one, see ``CurlConnectOnlyHandle``), driven by the loop while it is
/// attached to the loop's ``CurlSocketEvents``: its sockets wait in the loop's epoll set beside
/// the loop's own, and its timer is one more deadline of the loop's wait, so no thread waits
/// for it.
///
/// Curl thread only while attached; once detached, libcurl calls nothing of the loop's for it,
/// and it belongs to whoever holds it.
final class CurlPrivateMulti {
    let pointer: Curl.MultiPointer
    /// When libcurl must next be called for this multi handle's timeouts (the connect timeout
    /// among them).
    var timer = CurlTimer()
    /// The first `curl_multi_socket_action` failure while the loop drove it; the loop drives it
    /// no further, and its easy handle fails with this.
    var failure: CurlError?
    /// The loop's socket events, while they drive this multi handle.
    weak var driver: CurlSocketEvents?

    init() throws(CurlError) {
        pointer = try Curl.multiInit()
    }

    deinit {
        Curl.multiCleanup(pointer)
    }
}
