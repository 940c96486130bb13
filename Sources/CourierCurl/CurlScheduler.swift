/// Identifies one exchange (one easy-handle transfer) inside one transport.
struct TransferID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let rawValue: UInt64

    static func < (lhs: TransferID, rhs: TransferID) -> Bool { lhs.rawValue < rhs.rawValue }
    var description: String { "#\(rawValue)" }
}

/// The curl thread's bookkeeping as a value: which transfers run, how many easy handles exist
/// and sit idle, whether the transport is shutting down.
///
/// Each event returns the ``Action`` the event loop must perform; the machine itself touches no
/// handle, socket or continuation, so tests drive it with plain values.
struct CurlScheduler: Sendable {
    /// Where the easy handle for a new transfer comes from.
    enum HandleSource: Equatable, Sendable {
        case reuseIdle
        case create
    }

    /// What happens to an easy handle once its transfer is removed from the multi handle.
    enum HandleFate: Equatable, Sendable {
        /// Detach it from its transfer and keep it for the next one.
        case recycle
        /// `curl_easy_cleanup` it: the pool is full or the transport is going away.
        case destroy
    }

    /// Why a transfer ends without libcurl finishing it.
    enum Failure: Equatable, Sendable {
        case cancelled
        case shutDown
    }

    enum Action: Equatable, Sendable {
        case none
        /// Configure a handle and add it to the multi handle.
        case start(TransferID, HandleSource)
        /// Resume the transfer with `failure`; it never reached libcurl.
        case reject(TransferID, Failure)
        /// Remove the transfer's handle from the multi handle, resume it with `.cancelled`.
        case cancel(TransferID, HandleFate)
        /// libcurl finished it: remove its handle, resume it with the outcome.
        case finish(TransferID, HandleFate)
        /// A timeout passed that libcurl does not watch: remove its handle, resume it with
        /// `.timedOut`.
        case expire(TransferID, HandleFate)
        /// Fail every listed transfer with `.shutDown` (removing and destroying their handles),
        /// destroy every idle handle, clean up the multi handle and end the thread.
        case shutDown(failing: [TransferID])
    }

    /// The most easy handles kept idle for reuse.
    let maximumIdleHandles: Int
    private(set) var running: Set<TransferID> = []
    /// Easy handles that exist: running plus idle.
    private(set) var liveHandles = 0
    private(set) var idleHandles = 0
    private(set) var isShutDown = false

    init(maximumIdleHandles: Int) {
        self.maximumIdleHandles = max(0, maximumIdleHandles)
    }

    /// A caller submitted a transfer. `alreadyCancelled` is its cancellation flag as read on the
    /// curl thread: a cancel that raced ahead of the submission is honoured here.
    mutating func submit(_ id: TransferID, alreadyCancelled: Bool) -> Action {
        if isShutDown { return .reject(id, .shutDown) }
        if alreadyCancelled { return .reject(id, .cancelled) }
        running.insert(id)
        if idleHandles > 0 {
            idleHandles -= 1
            return .start(id, .reuseIdle)
        }
        liveHandles += 1
        return .start(id, .create)
    }

    /// Configuring or adding the handle failed; the loop fails the transfer with that error.
    mutating func startFailed(_ id: TransferID) -> HandleFate {
        guard running.remove(id) != nil else { return .destroy }
        return release()
    }

    /// The caller's task was cancelled. A cancel for a transfer that is not running (already
    /// finished, or not yet submitted, see ``submit(_:alreadyCancelled:)``) does nothing.
    mutating func cancel(_ id: TransferID) -> Action {
        guard running.remove(id) != nil else { return .none }
        return .cancel(id, release())
    }

    /// `curl_multi_info_read` reported the transfer done.
    mutating func finished(_ id: TransferID) -> Action {
        guard running.remove(id) != nil else { return .none }
        return .finish(id, release())
    }

    /// The transfer is overdue (see ``CurlTransfer/overdueError(at:)``).
    mutating func expire(_ id: TransferID) -> Action {
        guard running.remove(id) != nil else { return .none }
        return .expire(id, release())
    }

    mutating func shutDown() -> Action {
        guard !isShutDown else { return .none }
        isShutDown = true
        let failing = running.sorted()
        running = []
        liveHandles = 0
        idleHandles = 0
        return .shutDown(failing: failing)
    }

    private mutating func release() -> HandleFate {
        if !isShutDown, idleHandles < maximumIdleHandles {
            idleHandles += 1
            return .recycle
        }
        liveHandles -= 1
        return .destroy
    }
}
