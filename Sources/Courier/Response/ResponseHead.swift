#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// A response as Courier's engines answer it: the status, the header fields, the final URL, the
/// HTTP version spoken and what the engine measured of the exchange.
///
/// Cheap to build, unlike Foundation's `HTTPURLResponse`, whose initializer on Linux
/// canonicalises every header name and parses `Content-Type`: the policy layers, ``APIClient``
/// and ``Dispatcher`` run on this, and an `HTTPURLResponse` is built only for a caller that asks
/// for a ``Networking`` answer (``httpURLResponse``).
public struct ResponseHead: Sendable {
    /// The status code, e.g. 200.
    public let statusCode: Int
    /// The header fields in the order they arrived.
    public let headerFields: HeaderFields
    /// The URL that answered: the request's, or the last redirect's.
    public let url: URL?
    /// The HTTP version the response came in.
    public let httpVersion: HTTPVersion
    /// What the engine measured of the exchange (redirects included, see
    /// ``ExchangeMetrics/redirects``).
    public internal(set) var metrics: ExchangeMetrics {
        get { measured.metrics }
        set { measured = .boxing(newValue) }
    }
    /// The metrics behind a reference: inline they are ~300 bytes, and a head is held across
    /// `await` by every layer an exchange passes through, so each of those async frames, which
    /// stay allocated while the request is in flight, carried them again. A burst of thousands
    /// of requests grew the process by that much per request. Written only by the layers that
    /// add redirects or attempts.
    private var measured: MeasuredMetrics
    /// The Foundation response this head was read from, handed back as it is.
    private let foundation: FoundationResponse?

    /// A head from its parts, as an engine answers: `url` is the URL that answered, and
    /// `metrics` what the engine measured up to the head (see ``TransportEngine``).
    public init(
        statusCode: Int, headerFields: HeaderFields = HeaderFields(), url: URL?, httpVersion: HTTPVersion = .http1_1,
        metrics: ExchangeMetrics = ExchangeMetrics()
    ) {
        self.statusCode = statusCode
        self.headerFields = headerFields
        self.url = url
        self.httpVersion = httpVersion
        measured = .boxing(metrics)
        foundation = nil
    }

    /// The head of a Foundation response, or nil when it is not HTTP. Its fields are read from
    /// `response` only when asked for, and ``httpURLResponse`` is `response` itself.
    /// `HTTPURLResponse` keeps neither the version nor the order of its fields: the version reads
    /// as HTTP/1.1 and the fields come in its dictionary's order.
    package init?(_ response: URLResponse) {
        guard let http = response as? HTTPURLResponse else { return nil }
        let foundation = FoundationResponse(http: http)
        statusCode = http.statusCode
        headerFields = HeaderFields(foundation)
        url = http.url
        httpVersion = .http1_1
        measured = .none
        self.foundation = foundation
    }

    /// The value of the header field `name`, compared without regard to case; repeated fields
    /// joined with `", "`.
    public func value(forHTTPHeaderField name: String) -> String? {
        headerFields[name]
    }

    /// This head as Foundation's response, built now: what a ``Networking`` answer carries.
    /// Nil only where Foundation refuses the parts (never seen for a status of 100 to 999).
    public var httpURLResponse: HTTPURLResponse? {
        if let foundation { return foundation.http }
        return HTTPURLResponse(
            url: url ?? URL(fileURLWithPath: "/"), statusCode: statusCode, httpVersion: httpVersion.description,
            headerFields: headerFields.joined
        )
    }

    /// ``httpURLResponse``, or a plain `URLResponse` for the URL where Foundation refuses it.
    package var urlResponse: URLResponse {
        httpURLResponse ?? URLResponse(url: url ?? URL(fileURLWithPath: "/"), mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
    }
}

/// ``ResponseHead/metrics`` behind a reference; see ``ResponseHead``.
private final class MeasuredMetrics: Sendable {
    /// Nothing measured, shared by every head that has no metrics.
    static let none = MeasuredMetrics(ExchangeMetrics())

    let metrics: ExchangeMetrics

    private init(_ metrics: ExchangeMetrics) {
        self.metrics = metrics
    }

    /// A box for `metrics`, or the shared one when nothing was measured.
    static func boxing(_ metrics: ExchangeMetrics) -> MeasuredMetrics {
        metrics == ExchangeMetrics() ? none : MeasuredMetrics(metrics)
    }
}
