#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The layer that gives every `URLError` from below a description a person can act on: what
/// happened, the limit or duration involved when the engine reported one, and the method and URL.
///
/// Foundation on Linux describes every `URLError` as "The operation could not be completed.
/// (NSURLErrorDomain error -1001.)", so without this a timeout and a refused connection read
/// alike. The code, the failing URL and the underlying error are kept; the original error is the
/// underlying error when it had none. Errors that are already described pass through unchanged,
/// so stacking the layer twice changes nothing.
///
/// ```
/// timed out: no data received or sent for 1 s (GET http://127.0.0.1:8080/slow)
/// ```
package func describingErrors() -> NetworkingLayer {
    buffered(errorDescriptionLayer())
}

/// The error-description layer over either kind of body: a body still arriving gets its later
/// errors described too.
package func errorDescriptionLayer<Body: ExchangeBody, Head>() -> ExchangeLayer<Body, Head> {
    ExchangeLayer { send in
        { request, upload in
            do {
                let (body, response) = try await send(request, upload)
                return (body.describingErrors(for: request), response)
            } catch let error as URLError {
                throw error.described(for: request)
            }
        }
    }
}

extension URLError {
    /// Set on errors the error-description layer has described: what happened, without the method
    /// and URL, for messages that name those already.
    static let describedKey = "CourierDescribed"

    /// What happened, without the method and URL when the error-description layer described the
    /// error; its description otherwise.
    var whatHappened: String {
        userInfo[Self.describedKey] as? String ?? localizedDescription
    }

    /// This error with a description that names what happened and the request it happened to.
    package func described(for request: URLRequest) -> URLError {
        guard userInfo[Self.describedKey] == nil else { return self }
        let url = failingURL ?? request.url
        let method = request.httpMethod ?? "GET"
        var what = Self.phrase(for: code)
        if let detail = engineDetail ?? Self.defaultDetail(for: code, request: request) {
            what += ": \(detail)"
        }
        var info = userInfo
        info[NSLocalizedDescriptionKey] = "\(what) (\(method) \(url?.redactedString ?? "no URL"))"
        info[Self.describedKey] = what
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        if info[NSUnderlyingErrorKey] == nil { info[NSUnderlyingErrorKey] = self }
        return URLError(code, userInfo: info)
    }

    /// What the engine said about the failure, unless it is Foundation's generic sentence.
    private var engineDetail: String? {
        guard let text = userInfo[NSLocalizedDescriptionKey] as? String, !text.isEmpty,
              !text.hasPrefix("The operation could not be completed")
        else { return nil }
        return text
    }

    /// What can be said without the engine's words: the timeout that applied.
    private static func defaultDetail(for code: Code, request: URLRequest) -> String? {
        guard code == .timedOut else { return nil }
        let interval = request.timeoutInterval > 0 ? min(request.timeoutInterval, URLRequest.maximumTimeoutInterval) : 60
        return "no data received or sent for \(interval.formattedSeconds)"
    }

    static func phrase(for code: Code) -> String {
        switch code {
        case .timedOut: "timed out"
        case .cancelled: "cancelled"
        case .cannotConnectToHost: "could not connect to the server"
        case .cannotFindHost, .dnsLookupFailed: "could not find the server's host name"
        case .networkConnectionLost: "the connection was lost before the response was complete"
        case .notConnectedToInternet: "not connected to a network"
        case .badServerResponse: "the server's response is not valid HTTP"
        case .cannotParseResponse: "the response could not be parsed"
        case .dataLengthExceedsMaximum: "the response is larger than allowed"
        case .cannotDecodeContentData, .cannotDecodeRawData: "the response body could not be decoded"
        case .httpTooManyRedirects: "too many redirects"
        case .redirectToNonExistentLocation: "a redirect points nowhere"
        case .appTransportSecurityRequiresSecureConnection: "an insecure connection was refused"
        case .badURL: "the URL is not valid"
        case .unsupportedURL: "the URL's scheme is not supported"
        case .secureConnectionFailed: "the TLS handshake failed"
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid:
            "the server's certificate is not trusted"
        // Both are the server's verdict; a certificate of the caller's that cannot even be
        // loaded is no URLError (CourierCurl's CurlError.Kind.clientCertificateUnusable).
        case .clientCertificateRequired: "the server requires a client certificate"
        case .clientCertificateRejected: "the server refused the client certificate"
        case .requestBodyStreamExhausted: "the request body stream cannot be sent again"
        case .userAuthenticationRequired: "the server requires authentication"
        case .zeroByteResource: "the response is empty"
        default: "the request failed (URLError \(code.rawValue))"
        }
    }
}
