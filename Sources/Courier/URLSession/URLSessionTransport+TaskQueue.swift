#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

extension URLSessionTransport {
    /// Where one session's tasks are created, resumed and cancelled, and what refuses new ones
    /// once the transport is shut down.
    ///
    /// FoundationNetworking's `dataTask(with:)`, `resume()` and `cancel()` wait, with
    /// `DispatchQueue.sync`, for the session's work queue, which stays busy for as long as a
    /// fast server keeps sending:
    /// - on the few threads that run every Swift task they stalled unrelated work;
    /// - on the delegate queue, a cancel stopped the delivery of data, so undelivered blocks
    ///   piled up;
    /// - on `DispatchQueue.global()`, whose threads are as many as the cores, a cancel waited
    ///   behind whatever else blocked there while an endless body filled memory at the speed
    ///   of loopback.
    ///
    /// A serial queue of the session's own gets a thread whenever it has work, and the
    /// session's work queue serialises these calls anyway. Because tasks are only ever created
    /// here, the check for shutdown and the invalidation are ordered: FoundationNetworking traps
    /// ("Session invalidated") when a task is created on an invalidated session.
    final class TaskQueue: Sendable {
        private let queue = DispatchQueue(label: "Courier.URLSessionTransport.tasks")
        private let isShutDown = Locked(false)

        /// Runs `start` on the queue, or `refuse` there instead once the transport is shut down.
        func start(_ start: @escaping @Sendable () -> Void, refuse: @escaping @Sendable () -> Void) {
            queue.async { [isShutDown] in
                if isShutDown.withLock({ $0 }) { refuse() } else { start() }
            }
        }

        /// Cancels `task` on the queue, never where the caller is.
        func cancel(_ task: URLSessionTask) {
            queue.async { task.cancel() }
        }

        /// Refuses new tasks from now on; after the tasks already queued start, runs `stopping`
        /// and invalidates `session`, cancelling its tasks. Does nothing the second time.
        func shutDown(_ session: URLSession, stopping: @escaping @Sendable () -> Void) {
            let first = isShutDown.withLock { isShutDown in
                defer { isShutDown = true }
                return !isShutDown
            }
            guard first else { return }
            queue.async {
                stopping()
                session.invalidateAndCancel()
            }
        }
    }
}
