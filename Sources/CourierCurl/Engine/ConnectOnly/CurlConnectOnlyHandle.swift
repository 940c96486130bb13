/// An easy handle set up with `CURLOPT_CONNECT_ONLY`, and the multi handle of its own that opens
/// its connection (TCP, a proxy's tunnel, TLS) and holds it for as long as the handle is used
/// with `curl_easy_send` and `curl_easy_recv`. Releasing it closes the connection.
///
/// Why a multi handle of its own rather than the loop's: libcurl keeps a CONNECT_ONLY connection
/// only while its easy handle stays in the multi handle that opened it. CURLOPT_CONNECT_ONLY(3):
/// "the particular easy handle must remain added to the multi handle for as long as the
/// application wants to use it. Once it has been removed with curl_multi_remove_handle(3),
/// curl_easy_send(3) and curl_easy_recv(3) do not function". From 7.72 on,
/// `curl_multi_remove_handle` marks such a connection for closing and leaves the handle no way
/// to it (7.88 and 8.14 checked: the socket is closed, `CURLINFO_ACTIVESOCKET` says -1 and
/// `curl_easy_send` fails). Left in the loop's multi handle, the connection sits idle in
/// the pool the loop's transfers share, and libcurl closes idle connections there: to make room
/// under the per-host limit for a transfer to the same host (with the limit reached, a request
/// to the WebSocket's host closed it, on 7.88 and 8.14), and in its liveness check before it
/// opens a new connection (older than CURLOPT_MAXAGE_CONN, or, on 8.x, with input waiting). Alone in a multi handle, as
/// `curl_easy_perform` puts a handle, nothing else ever runs beside it to ask for room, and the
/// loop drives that multi handle from its own epoll set and timer while it connects
/// (``CurlPrivateMulti``), then never again.
///
/// One owner at a time: the event loop while it connects, then the connection it is handed to.
final class CurlConnectOnlyHandle: @unchecked Sendable {
    let easy: CurlEasyHandle
    let multi: CurlPrivateMulti
    private var isInMulti = false

    init(_ easy: CurlEasyHandle) throws(CurlError) {
        self.easy = easy
        multi = try CurlPrivateMulti()
    }

    deinit {
        removeFromMulti()
    }

    var pointer: Curl.EasyPointer { easy.pointer }

    /// libcurl's detailed message for the last failure, if it wrote one.
    var errorMessage: String? { easy.errorMessage }

    /// Adds the easy handle to its multi handle, which starts the connecting.
    func addToMulti() throws(CurlError) {
        try Curl.add(easy.pointer, to: multi.pointer)
        isInMulti = true
    }

    /// Takes the easy handle out of its multi handle, which closes its connection.
    func removeFromMulti() {
        guard isInMulti else { return }
        isInMulti = false
        Curl.remove(easy.pointer, from: multi.pointer)
    }

    /// nil while libcurl connects; then whether the connection is open, or why not, in libcurl's
    /// detailed words (its error buffer) when it wrote them.
    func connectResult() -> Result<Void, CurlError>? {
        if let failure = multi.failure { return .failure(failure) }
        guard let (_, code) = Curl.nextFinished(multi.pointer) else { return nil }
        guard code != Curl.Code.ok else { return .success(()) }
        return .failure(CurlError(kind: .transfer, curlCode: code, message: errorMessage ?? Curl.message(forCode: code)))
    }
}
