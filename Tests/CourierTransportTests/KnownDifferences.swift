#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where a transport's answer is known to differ from the reference behaviour (URLSession on
/// Darwin, which the libcurl transport follows), each with its reason. The suite asserts each
/// transport's actual answer, so a difference that stops occurring fails a test and is removed.
extension TransportKind {
    /// The code for a server that closes the connection mid-body (fewer bytes than announced).
    ///
    /// FoundationNetworking does not map libcurl's `CURLE_PARTIAL_FILE` and reports `.unknown`;
    /// Darwin reports `.networkConnectionLost`.
    var codeForTruncatedBody: URLError.Code {
        switch self {
        case .urlSession: .unknown
        case .curl: .networkConnectionLost
        }
    }

    /// Whether a 307/308 redirect of a request with a body re-sends that body.
    ///
    /// FoundationNetworking keeps the method but sends `Content-Length: 0` on the redirected
    /// request, even when its redirect delegate hands back a request with the body.
    var resendsBodyOn307And308: Bool {
        switch self {
        case .urlSession: false
        case .curl: true
        }
    }
}

extension TransportKind {
    /// The most TCP connections a server sees from 2,000 requests, 64 in flight, to one host
    /// with the default limit of 6 per host; nil when there is no bound.
    ///
    /// FoundationNetworking sets `CURLMOPT_MAX_HOST_CONNECTIONS` but leaves libcurl's connection
    /// cache at its default size, 4 × the easy handles currently added. The cache shrinks
    /// whenever the load dips, libcurl closes idle connections, and the next burst opens new
    /// ones: 6 to 65 connections were measured for the same run, so none is asserted beyond
    /// one per request. CurlTransport fixes the cache size (`CURLMOPT_MAXCONNECTS`) and stays
    /// within 6 (it saw 7 before that fix).
    func maximumConnectionsUnderLoad(perHostLimit: Int) -> Int? {
        switch self {
        case .urlSession: nil
        case .curl: perHostLimit
        }
    }
}

extension TransportKind {
    /// The code for a chunked body that never ends.
    ///
    /// CurlTransport stops it at `maximumResponseBytes` (`.dataLengthExceedsMaximum`).
    /// URLSession has no size limit and FoundationNetworking ignores
    /// `timeoutIntervalForResource` (set to 2 s, the request was still reading after 220 s,
    /// memory growing), so only the caller can stop it: the test cancels after
    /// ``cancelEndlessBodyAfter`` and gets `.cancelled`.
    var codeForEndlessBody: URLError.Code {
        switch self {
        case .urlSession: .cancelled
        case .curl: .dataLengthExceedsMaximum
        }
    }

    /// When the endless-body test cancels its request: 0.5 s for URLSession, whose memory and
    /// CPU use grow all the while; for CurlTransport, which must stop by itself, a safety net.
    var cancelEndlessBodyAfter: Duration {
        switch self {
        case .urlSession: .milliseconds(500)
        case .curl: .seconds(12)
        }
    }

    /// The most decoded body bytes accepted, given the limit a test configured for
    /// CurlTransport; nil when the transport has no limit.
    ///
    /// URLSession has no response size limit: it inflates a gzip bomb whole into memory.
    func decodedBodyLimit(configured: Int) -> Int? {
        switch self {
        case .urlSession: nil
        case .curl: configured
        }
    }
}

extension TransportKind {
    /// Whether the header `name`, set on a request by the caller, is still sent after a redirect
    /// to another origin (scheme, host or port).
    ///
    /// CurlTransport drops `Authorization`, `Cookie`, `Proxy-Authorization` and the names in
    /// `sensitiveHeaderNames` (the tests mark `X-Api-Key`) for the rest of the chain.
    /// FoundationNetworking copies the original request's headers onto every hop.
    func forwardsAcrossOrigins(_ name: String) -> Bool {
        switch self {
        case .urlSession: true
        case .curl: false
        }
    }

    enum FileRedirectAnswer: Equatable {
        /// The 302 itself is the response.
        case deliversTheRedirect
        /// The location's path is requested from the redirecting server instead.
        case requestsItsPathFromTheSameServer
    }

    /// What a `Location: file:///etc/passwd` gives. Neither transport reads the file.
    ///
    /// CurlTransport hands back the 302, as Darwin's URLSession does for a scheme it will not
    /// follow. FoundationNetworking keeps the scheme, host and port of the current URL and
    /// takes only the path, so it asks the same server for `/etc/passwd` (a 404 here).
    var answerToFileRedirect: FileRedirectAnswer {
        switch self {
        case .urlSession: .requestsItsPathFromTheSameServer
        case .curl: .deliversTheRedirect
        }
    }
}

extension TransportKind {
    /// Whether `http_proxy`/`ALL_PROXY` in the environment send requests through that proxy.
    ///
    /// CurlTransport sets `CURLOPT_PROXY` to `""` unless a proxy is configured, so the
    /// environment is never obeyed silently. FoundationNetworking lets libcurl read the
    /// variables (`no_proxy` included), so a process's environment can reroute every request,
    /// loopback ones too.
    var obeysProxyEnvironment: Bool {
        switch self {
        case .urlSession: true
        case .curl: false
        }
    }
}
