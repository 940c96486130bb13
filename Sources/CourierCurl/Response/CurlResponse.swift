#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Courier

/// A final response as the engine received it: status, body and the header block as bytes,
/// parsed only as far as a caller asks. ``head`` is what the engine answers with.
struct CurlResponse: Sendable {
    /// The URL the response came from, after redirects.
    let url: URL
    /// The status code of the final response.
    let statusCode: Int
    /// The protocol of the final response, e.g. `HTTP/1.1`.
    let httpVersion: String
    /// The decoded body (without content coding, as URLSession delivers it).
    let body: Data
    /// What libcurl measured of this exchange: when each phase ended, whether the connection
    /// was reused, the addresses at both ends, and the bytes each way.
    ///
    /// Read from libcurl once, when the transfer ended, so it costs nothing per byte. A phase
    /// that did not happen in this exchange is nil: ``/Courier/ExchangeMetrics/connect`` and
    /// ``/Courier/ExchangeMetrics/secureConnect`` over a reused connection,
    /// ``/Courier/ExchangeMetrics/secureConnect`` over plain HTTP, and
    /// ``/Courier/ExchangeMetrics/queued`` with a libcurl older than 8.6, which does not measure it.
    /// ``/Courier/ExchangeMetrics/responseBodyBytes`` counts the body before content decoding
    /// (without chunked framing), ``/Courier/ExchangeMetrics/decodedBodyBytes`` the bytes of
    /// ``body``. This is one exchange, so ``/Courier/ExchangeMetrics/redirects`` is empty.
    let metrics: ExchangeMetrics
    /// The status line and header lines of the final response, as received.
    let headerBytes: [UInt8]

    /// Builds a response from a header block; nil when it has no valid status line.
    init?(url: URL, headerBytes: [UInt8], body: Data, metrics: ExchangeMetrics = ExchangeMetrics()) {
        guard let status = CurlResponseHead.statusLine(in: headerBytes) else { return nil }
        self.url = url
        statusCode = status.code
        httpVersion = status.version
        self.body = body
        self.headerBytes = headerBytes
        self.metrics = metrics
    }

    /// The field's value, its name compared case-insensitively; a field that repeats has its
    /// values joined with `", "` in the order received, as `HTTPURLResponse` reports it.
    func value(forHTTPHeaderField name: String) -> String? {
        CurlResponseHead.value(of: name, in: headerBytes)
    }

    /// Every header field, names spelled as received (the first spelling of a repeated name),
    /// repeated fields joined with `", "`.
    var headerFields: [String: String] {
        CurlResponseHead(bytes: headerBytes)?.fields ?? [:]
    }

    /// The head as Courier's engines answer it, with the exchange's metrics: the header block
    /// is kept as it came and read only when a field is asked for.
    var head: ResponseHead {
        ResponseHead(
            statusCode: statusCode, headerFields: HeaderFields(headBlock: headerBytes), url: url,
            httpVersion: HTTPVersion(statusLineVersion: httpVersion) ?? .http1_1, metrics: metrics
        )
    }
}
