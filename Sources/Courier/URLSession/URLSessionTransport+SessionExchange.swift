#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// What the session's delegate hands a task's events to: a buffered ``Exchange`` or a
    /// ``StreamExchange``, which share the delegate's limits and refusals.
    protocol SessionExchange: AnyObject, Sendable {
        var request: URLRequest { get }
        /// Stops the exchange with `error` (a refusal of the head, the idle timeout, a
        /// shutdown): whoever waits gets it at once, and the task is cancelled. Does nothing
        /// once the exchange has ended or was stopped already.
        func stop(with error: URLError)
        /// The head arrived and was allowed.
        func receive(_ response: URLResponse)
        /// Body bytes arrived; the body may have `limit` bytes at most.
        func append(_ data: Data, limit: Int)
        /// The task ended.
        func complete(data: Data?, response: URLResponse?, error: (any Error)?, challenged: HTTPURLResponse?)
        /// FoundationNetworking has sent `totalBytes` of the request body so far.
        func sent(_ totalBytes: Int64)
    }
}

extension URLSessionTransport.SessionExchange {
    func sent(_ totalBytes: Int64) {}
}
