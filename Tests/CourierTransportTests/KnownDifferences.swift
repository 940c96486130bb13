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
