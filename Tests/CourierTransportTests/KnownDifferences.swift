#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Where a transport's answer is known to differ from the reference behaviour (URLSession on
/// Darwin, which the libcurl transport follows), each with its reason. The suite asserts each
/// transport's actual answer, so a difference that stops occurring fails a test and is removed.
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

extension TransportKind {
    /// Whether a status line whose HTTP-name is not `HTTP` (`Http/1.1 200 OK`) is refused, as
    /// RFC 9112 §4 has it: the name is case-sensitive.
    ///
    /// libcurl reads the name without regard to case, and FoundationNetworking drops the
    /// version it parsed: `HTTPURLResponse` keeps no version, and its task metrics no protocol
    /// name, so nothing above it can tell this response from an `HTTP/1.1` one. CurlTransport
    /// reads the status line itself and refuses it.
    var refusesAMiscasedHTTPName: Bool {
        switch self {
        case .urlSession: false
        case .curl: true
        }
    }

    /// Whether a status line with no space after the code (`HTTP/1.1 200`) is accepted, as
    /// libcurl and most clients do.
    ///
    /// FoundationNetworking parses the head again after libcurl and needs that space; it
    /// aborts the transfer from its header callback, inside libcurl, before any delegate sees
    /// the response, so URLSessionTransport can only say why it failed.
    var acceptsAStatusLineWithNoSpaceAfterTheCode: Bool {
        switch self {
        case .urlSession: false
        case .curl: true
        }
    }
}
