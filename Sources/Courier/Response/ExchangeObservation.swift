#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// What the observability products (logging, metrics, tracing) read of an exchange, written once
// here so that a log line, a span attribute and a metric dimension never disagree. URLs in them
// are redacted by the one rule every message follows (URL+Redacted.swift).

extension HTTPVersion {
    /// `1.1`, `2`: the version as OpenTelemetry's `network.protocol.version` writes it.
    package var protocolVersion: String {
        major >= 2 && minor == 0 ? "\(major)" : "\(major).\(minor)"
    }
}

/// The class of a status code as metrics dimension it: `1xx` to `5xx`, or `other` outside them.
package func statusClass(_ statusCode: Int) -> String {
    switch statusCode {
    case 100..<200: "1xx"
    case 200..<300: "2xx"
    case 300..<400: "3xx"
    case 400..<500: "4xx"
    case 500..<600: "5xx"
    default: "other"
    }
}

/// What went wrong, as a person reads it, without the method and URL (a log line or a span
/// carries those already): for a `URLError`, what the error-description layer wrote (the layer every
/// transport's `exchange` has), or Courier's phrase for its code where no layer described it,
/// never Foundation's generic sentence; any other error's own description. Any URL in the text
/// is redacted as ``URL/redactedString`` redacts one.
package func readableMessage(for error: any Error) -> String {
    let text: String
    if let urlError = error as? URLError {
        text = urlError.userInfo[URLError.describedKey] as? String ?? URLError.phrase(for: urlError.code)
    } else {
        text = String(describing: error)
    }
    return redactingURLs(in: text)
}

/// A short name for the kind of failure, few enough distinct values to group by: `URLError`
/// with its code (`URLError.timedOut`), or the error's type name.
package func errorType(of error: any Error) -> String {
    if let urlError = error as? URLError { return "URLError.\(urlErrorCodeName(urlError.code))" }
    if error is CancellationError { return "CancellationError" }
    return String(describing: type(of: error))
}

private func urlErrorCodeName(_ code: URLError.Code) -> String {
    switch code {
    case .timedOut: "timedOut"
    case .cancelled: "cancelled"
    case .cannotConnectToHost: "cannotConnectToHost"
    case .cannotFindHost: "cannotFindHost"
    case .dnsLookupFailed: "dnsLookupFailed"
    case .networkConnectionLost: "networkConnectionLost"
    case .notConnectedToInternet: "notConnectedToInternet"
    case .badServerResponse: "badServerResponse"
    case .cannotParseResponse: "cannotParseResponse"
    case .dataLengthExceedsMaximum: "dataLengthExceedsMaximum"
    case .cannotDecodeContentData: "cannotDecodeContentData"
    case .cannotDecodeRawData: "cannotDecodeRawData"
    case .httpTooManyRedirects: "httpTooManyRedirects"
    case .redirectToNonExistentLocation: "redirectToNonExistentLocation"
    case .badURL: "badURL"
    case .unsupportedURL: "unsupportedURL"
    case .secureConnectionFailed: "secureConnectionFailed"
    case .serverCertificateUntrusted: "serverCertificateUntrusted"
    case .serverCertificateHasUnknownRoot: "serverCertificateHasUnknownRoot"
    case .serverCertificateHasBadDate: "serverCertificateHasBadDate"
    case .serverCertificateNotYetValid: "serverCertificateNotYetValid"
    case .clientCertificateRejected: "clientCertificateRejected"
    case .clientCertificateRequired: "clientCertificateRequired"
    case .zeroByteResource: "zeroByteResource"
    default: "\(code.rawValue)"
    }
}

extension ExchangeMetrics {
    /// What the engine measured of the exchange that failed with `error`, redirects included,
    /// when the error carries it (``Foundation/URLError/exchangeMetrics``).
    package init?(failure error: any Error) {
        guard let metrics = (error as? URLError)?.exchangeMetrics else { return nil }
        self = metrics
    }

    /// How long the whole call ran as measured: the attempts retried before this one with their
    /// waits, the hops before this one, and this hop's total as the engine measured it; nil when
    /// this hop's total is unknown.
    package var wholeCallDuration: Duration? {
        guard let total else { return nil }
        let earlierAttempts = attempts.reduce(Duration.zero) { $0 + $1.duration + $1.delay }
        return redirects.reduce(earlierAttempts + total) { $0 + ($1.total ?? .zero) }
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to `Int64`, as metrics and tracing take it.
    package var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflowed) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        return overflowed ? (seconds < 0 ? .min : .max) : sum
    }
}
