internal import CCurl

/// A connection libcurl only opens (`CURLOPT_CONNECT_ONLY`): TCP, the proxy's tunnel and TLS,
/// in a multi handle of its own (see ``CurlConnectOnlyHandle``), after which the caller speaks on
/// it with `curl_easy_send` and `curl_easy_recv`, which go through libcurl's TLS. Both calls are
/// non-blocking and say so with `CURLE_AGAIN`.
extension Curl {
    /// A write callback that takes every byte and keeps none: what a CONNECT_ONLY handle needs
    /// for the proxy's answer to CONNECT, which libcurl hands to the header callback.
    static let discardBytes: WriteCallback = { _, size, count, _ in size * count }

    /// Sends what it can of `bytes` without blocking: the count sent, or nil when the socket
    /// takes nothing now.
    static func send(_ easy: EasyPointer, _ bytes: UnsafeRawBufferPointer) throws(CurlError) -> Int? {
        var sent = 0
        let code = curl_easy_send(easy, bytes.baseAddress, bytes.count, &sent)
        if code == CURLE_AGAIN { return nil }
        guard code == CURLE_OK else {
            throw CurlError(kind: .transfer, curlCode: Int(code.rawValue), message: "curl_easy_send: \(easyMessage(code))")
        }
        return sent
    }

    /// Receives into `buffer` without blocking: the count received (0 when the peer closed the
    /// connection), or nil when nothing is there now.
    static func receive(_ easy: EasyPointer, into buffer: UnsafeMutableRawBufferPointer) throws(CurlError) -> Int? {
        var received = 0
        let code = curl_easy_recv(easy, buffer.baseAddress, buffer.count, &received)
        if code == CURLE_AGAIN { return nil }
        guard code == CURLE_OK else {
            throw CurlError(kind: .transfer, curlCode: Int(code.rawValue), message: "curl_easy_recv: \(easyMessage(code))")
        }
        return received
    }
}
