#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Synchronization

extension URLSessionTransport {
    /// Works around a FoundationNetworking defect: a `401` carrying `WWW-Authenticate` never
    /// completes its task when the session has no delegate, and `performDefaultHandling` hangs
    /// the same way. Here the challenge is rejected and its `failureResponse` kept, so the caller
    /// gets the 401 response (its headers; FoundationNetworking discards the body) instead of
    /// waiting forever.
    final class SessionDelegate: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        // @unchecked: the only state is the Mutex below; NSObject itself is not Sendable.
        private let challengedResponses = Mutex<[Int: HTTPURLResponse]>([:])

        func urlSession(
            _ session: URLSession,
            task: URLSessionTask,
            didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Only HTTP authentication challenges carry a failure response; TLS ones keep the
            // default handling (certificate validation).
            if let response = challenge.failureResponse as? HTTPURLResponse,
               response.statusCode == 401 || response.statusCode == 407 {
                challengedResponses.withLock { $0[task.taskIdentifier] = response }
                completionHandler(.rejectProtectionSpace, nil)
            } else {
                completionHandler(.performDefaultHandling, nil)
            }
        }

        /// The 401/407 response whose challenge ended `taskIdentifier`, removed once read.
        func takeChallengedResponse(for taskIdentifier: Int) -> HTTPURLResponse? {
            challengedResponses.withLock { $0.removeValue(forKey: taskIdentifier) }
        }
    }
}
