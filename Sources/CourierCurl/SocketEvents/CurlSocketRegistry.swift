/// The sockets libcurl asked to have watched, and what each request means for the wait set.
///
/// libcurl reports a socket's interest whenever it changes (`CURLMOPT_SOCKETFUNCTION`); the
/// wait set (epoll) needs to know whether that is a first registration, a change or a removal.
/// Curl thread only.
struct CurlSocketRegistry {
    /// Which readiness a watched socket waits for.
    struct Interest: Equatable, Sendable {
        var readable: Bool
        var writable: Bool
    }

    /// What the wait set must do for one socket.
    enum Change: Equatable, Sendable {
        case add(Interest)
        case modify(Interest)
        case remove
        case none
    }

    private var watched: [Int32: Interest] = [:]

    var count: Int { watched.count }

    /// The interest a watched socket was last registered with.
    func interest(of socket: Int32) -> Interest? { watched[socket] }

    /// Records libcurl's request for `socket` and returns the wait set's change.
    ///
    /// A socket libcurl still uses but wants no event from (`CURL_POLL_NONE`, while a transfer
    /// is paused, say) leaves the set: kept with no events, epoll would still report its
    /// errors and hang-ups, and wake the thread for a transfer nobody can act on.
    mutating func update(socket: Int32, to request: Curl.SocketInterest) -> Change {
        let wanted: Interest? = switch request {
        case .read: Interest(readable: true, writable: false)
        case .write: Interest(readable: false, writable: true)
        case .readWrite: Interest(readable: true, writable: true)
        case .none, .remove: nil
        }
        let current = watched[socket]
        watched[socket] = wanted
        switch (current, wanted) {
        case (nil, nil): return .none
        case (nil, let wanted?): return .add(wanted)
        case (.some, nil): return .remove
        case (let current?, let wanted?): return current == wanted ? .none : .modify(wanted)
        }
    }

    /// Forgets every socket: libcurl is gone, and the wait set with it.
    mutating func removeAll() {
        watched.removeAll()
    }
}
