/// What a libcurl build can do, among the features a request may ask for.
///
/// Read at run time (``Curl/features``), because the library a process links need not be the
/// one whose headers the package was compiled against, and zlib, brotli, zstd and nghttp2 are
/// each optional in a libcurl build. The engine asks libcurl for
/// "every coding you have", and offers HTTP/2 by default only where libcurl has it, so it never
/// offers what is missing; this value says what that amounts to, for tests and diagnostics.
struct CurlFeatures: Equatable, Sendable {
    /// `LIBCURL_VERSION_NUM` of the linked library, e.g. `0x075801` for 7.88.1.
    var versionNumber: Int
    /// deflate and gzip.
    var zlib: Bool
    var brotli: Bool
    var zstd: Bool
    /// Offered over TLS by ALPN when present (``CurlTransport/HTTPVersionPreference/automatic``).
    var http2: Bool
    /// HTTP/3 over QUIC (ngtcp2 or quiche): the preferences
    /// ``CurlTransport/HTTPVersionPreference/http3`` and
    /// ``CurlTransport/HTTPVersionPreference/http3Only`` are refused without it, before anything
    /// is sent, since libcurl would otherwise speak an older version or fail late.
    var http3: Bool = false

    /// Whether an HTTP/2 connection opened with prior knowledge over cleartext (h2c) can carry
    /// a second request. Before 8.0 it cannot: libcurl answers the first request and fails every
    /// later one on that connection, sequential or multiplexed, with "Error in the HTTP2 framing
    /// layer" (fixed in 8.0; the curl command line of 7.88 fails the same way). h2 over TLS is
    /// not affected.
    var reusesCleartextHTTP2Connections: Bool {
        versionNumber >= 0x08_00_00
    }

    /// Whether `CURLINFO_REQUEST_SIZE` counts the request's body with its head. From 8.7 libcurl
    /// counts every byte it sends for a request; before, only the head, and the body was counted
    /// apart (`CURLINFO_SIZE_UPLOAD_T`).
    var requestSizeCountsBody: Bool {
        versionNumber >= 0x08_07_00
    }

    /// Whether libcurl percent-decodes `CURLOPT_PROXYUSERNAME` and `CURLOPT_PROXYPASSWORD`,
    /// which it documents as taken as they are. Before 8.8 it decoded them, so `%41` in a
    /// password reached the proxy as `A`.
    var decodesProxyCredentials: Bool {
        versionNumber < 0x08_08_00
    }

    /// The content codings libcurl decodes, in the order it lists them for
    /// CURLOPT_ACCEPT_ENCODING "" (its `Curl_all_content_encodings`, the same from 7.76 to 7.88).
    var contentCodings: [String] {
        (zlib ? ["deflate", "gzip"] : []) + (brotli ? ["br"] : []) + (zstd ? ["zstd"] : [])
    }

    /// The `Accept-Encoding` libcurl sends for CURLOPT_ACCEPT_ENCODING "": its codings, or
    /// `identity` when it decodes none.
    var acceptEncoding: String {
        contentCodings.isEmpty ? "identity" : contentCodings.joined(separator: ", ")
    }
}
