#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

// What the observability products (logging, metrics, tracing) read of an exchange, written once
// here so that a log line, a span attribute and a metric dimension never disagree, and so that
// none of them can show a secret the others hide.

extension URL {
    /// The URL as text for logs, span attributes and metrics: ``redactedString``'s password
    /// redaction, the value of every query item whose name looks like a secret replaced by
    /// `xxxxx`, and no fragment.
    ///
    /// A name looks like a secret when, lowercased and without `-` and `_`, it contains `token`,
    /// `key`, `secret`, `password`, `passwd`, `signature`, `credential`, `auth` or `session`, or is
    /// `sig`, `pwd` or `code` (an OAuth authorization code). That over-redacts a `keyword` or a
    /// `monkey` rather than miss an `X-Amz-Signature` or an `api_key`. Other query values stay, since
    /// they are what tells two requests to one path apart. The fragment is dropped: it never goes
    /// on the wire, and an OAuth implicit grant puts its `access_token` there.
    package var observedString: String {
        redactingQuerySecrets(in: redactedString)
    }
}

/// `text`, a URL as text, with ``URL/observedString``'s query redaction and without a fragment.
package func redactingQuerySecrets(in text: String) -> String {
    let withoutFragment = text.firstIndex(of: "#").map { text[..<$0] } ?? text[...]
    guard let questionMark = withoutFragment.firstIndex(of: "?") else { return String(withoutFragment) }
    let query = withoutFragment[withoutFragment.index(after: questionMark)...]
    var redacted = String(withoutFragment[...questionMark])
    var first = true
    for item in query.split(separator: "&", omittingEmptySubsequences: false) {
        if !first { redacted += "&" }
        first = false
        guard let equals = item.firstIndex(of: "="), isSecretQueryName(item[..<equals]) else {
            redacted += item
            continue
        }
        redacted += item[...equals] + "xxxxx"
    }
    return redacted
}

/// Whether a query item's name, as written in the URL, names a secret.
package func isSecretQueryName(_ name: Substring) -> Bool {
    let decoded = (String(name).removingPercentEncoding ?? String(name)).lowercased()
    let folded = decoded.filter { $0 != "-" && $0 != "_" }
    if ["sig", "pwd", "code"].contains(folded) { return true }
    return ["token", "key", "secret", "password", "passwd", "signature", "credential", "auth", "session"]
        .contains { folded.contains($0) }
}

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
/// carries those already): for a `URLError`, what ``describingErrors()`` wrote (the layer every
/// transport's `exchange` has), or Courier's phrase for its code where no layer described it,
/// never Foundation's generic sentence; any other error's own description. Any URL in the text
/// is redacted as ``URL/observedString`` redacts one.
package func readableMessage(for error: any Error) -> String {
    let text: String
    if let urlError = error as? URLError {
        text = urlError.userInfo[URLError.describedKey] as? String ?? URLError.phrase(for: urlError.code)
    } else {
        text = String(describing: error)
    }
    return redactingURLs(in: text)
}

/// `text` with every `scheme://…` run in it redacted as ``URL/observedString`` redacts a URL.
/// A run ends at whitespace or at a character that cannot end a URL in prose: a quote, a closing
/// bracket, or `>`.
package func redactingURLs(in text: String) -> String {
    guard text.contains("://") else { return text }
    let characters = Array(text)
    var result = ""
    var index = 0
    while index < characters.count {
        guard let separator = firstSchemeSeparator(in: characters, from: index) else {
            result += String(characters[index...])
            break
        }
        var start = separator
        while start > index, characters[start - 1].isASCII,
              characters[start - 1].isLetter || characters[start - 1].isNumber || "+-.".contains(characters[start - 1]) {
            start -= 1
        }
        var end = separator + 3
        while end < characters.count, !characters[end].isWhitespace, !"\"'()[]<>".contains(characters[end]) {
            end += 1
        }
        result += String(characters[index..<start])
        result += redactingQuerySecrets(in: redactingPassword(in: String(characters[start..<end])))
        index = end
    }
    return result
}

private func firstSchemeSeparator(in characters: [Character], from start: Int) -> Int? {
    var index = start
    while index + 2 < characters.count {
        if characters[index] == ":", characters[index + 1] == "/", characters[index + 2] == "/" { return index }
        index += 1
    }
    return nil
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
