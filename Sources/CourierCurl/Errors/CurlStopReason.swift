#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Why a transfer's own callbacks stopped it, rather than libcurl or the server: libcurl then
/// reports only that a callback aborted, or a write error, and this is what the awaiting task
/// is told instead.
enum CurlStopReason {
    /// A limit was passed: the response headers or the decoded body grew too large.
    case exceededLimit(CurlError)
    /// Producing a streamed upload (`URLRequest.httpBodyStream` included) failed.
    case bodyStreamFailed(CurlError)
    /// Nothing moved either way for longer than the idle timeout.
    case idleTimeout(CurlError)

    /// Which reason a transfer keeps when its callbacks stop it twice: a limit first, then a
    /// failed upload, then the timeout; the later of two alike. A limit or a failed producer is
    /// a cause, a silence noticed after it only a consequence.
    func keeping(_ later: CurlStopReason) -> CurlStopReason {
        later.rank >= rank ? later : self
    }

    private var rank: Int {
        switch self {
        case .exceededLimit: 2
        case .bodyStreamFailed: 1
        case .idleTimeout: 0
        }
    }

    var error: CurlError {
        switch self {
        case .exceededLimit(let error), .bodyStreamFailed(let error), .idleTimeout(let error): error
        }
    }

    /// The `URLError` code URLSession gives for the same event.
    var urlErrorCode: URLError.Code {
        switch self {
        case .exceededLimit: .dataLengthExceedsMaximum
        // URLError has no code for it (FoundationNetworking sends such a body as empty and
        // reports success); the CurlError underneath says what failed.
        case .bodyStreamFailed: .unknown
        case .idleTimeout: .timedOut
        }
    }

    func urlError(url: URL?) -> URLError {
        error.urlError(code: urlErrorCode, url: url)
    }
}

extension CurlStopReason? {
    /// Records `reason` by the rule of ``CurlStopReason/keeping(_:)``.
    mutating func record(_ reason: CurlStopReason) {
        self = self?.keeping(reason) ?? reason
    }
}
