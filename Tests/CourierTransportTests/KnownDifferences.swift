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
    /// FoundationNetworking reports `.unknown` with libcurl's message; the URLSession engine
    /// reads the message and gives `.networkConnectionLost`, as CurlTransport and Darwin do.
    var codeForTruncatedBody: URLError.Code { .networkConnectionLost }

    /// Whether a 307/308 redirect of a request with a body re-sends that body: on both, since
    /// the shared redirect layer builds every hop and FoundationNetworking follows none itself.
    var resendsBodyOn307And308: Bool { true }
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
    /// The code for a chunked body that never ends: both engines stop it at
    /// `Policies.maximumResponseBytes`.
    var codeForEndlessBody: URLError.Code { .dataLengthExceedsMaximum }

    /// When the endless-body test cancels its request: a safety net, since both must stop by
    /// themselves.
    var cancelEndlessBodyAfter: Duration { .seconds(12) }

    /// The most decoded body bytes accepted, given the limit a test configured.
    func decodedBodyLimit(configured: Int) -> Int? { configured }
}

extension TransportKind {
    /// Whether the header `name`, set on a request by the caller, is still sent after a redirect
    /// to another origin (scheme, host or port): never, on both, since the shared redirect layer
    /// drops `Authorization`, `Cookie`, `Proxy-Authorization` and the configured names.
    func forwardsAcrossOrigins(_ name: String) -> Bool { false }

    enum FileRedirectAnswer: Equatable {
        /// The 302 itself is the response.
        case deliversTheRedirect
        /// The location's path is requested from the redirecting server instead.
        case requestsItsPathFromTheSameServer
    }

    /// What a `Location: file:///etc/passwd` gives: the 302 itself on both, as Darwin's
    /// URLSession does for a scheme it will not follow. Neither reads the file.
    var answerToFileRedirect: FileRedirectAnswer { .deliversTheRedirect }
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
