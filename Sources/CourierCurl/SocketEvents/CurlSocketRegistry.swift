/// The sockets libcurl asked to have watched, and what each request means for the wait set.
///
/// libcurl reports a socket's interest whenever it changes (`CURLMOPT_SOCKETFUNCTION`). A
/// keep-alive connection is given up when its transfer ends (`CURL_POLL_REMOVE`) and asked for
/// again, with the same interest, by the next transfer that reuses it; taking it out of the set
/// and putting it back would cost two `epoll_ctl` calls a request. So a socket libcurl no longer
/// wants stays in the set, marked unwanted, until it either is wanted again (one `epoll_ctl`) or
/// reports an event (an idle connection the server closed), which takes it out then. Curl thread
/// only.
struct CurlSocketRegistry {
    /// Which readiness a watched socket waits for.
    struct Interest: Equatable, Sendable {
        var readable: Bool
        var writable: Bool
    }

    /// What the wait set must do for one socket.
    enum Change: Equatable, Sendable {
        case add(Interest)
        /// Also for a socket that was unwanted: its number may since have been closed, which
        /// took it out of the set, and reused for a new connection (the wait set then adds it).
        case modify(Interest)
        case none
    }

    private struct Entry {
        var interest: Interest
        var isWanted: Bool
    }

    private var entries: [Int32: Entry] = [:]

    /// Sockets in the wait set, wanted or not.
    var count: Int { entries.count }

    /// The interest of a socket libcurl wants watched; nil for one it does not.
    func interest(of socket: Int32) -> Interest? {
        entries[socket].flatMap { $0.isWanted ? $0.interest : nil }
    }

    /// Records libcurl's request for `socket` and returns the wait set's change.
    ///
    /// No interest (`CURL_POLL_NONE`, while a transfer is paused, say) counts as unwanted, as a
    /// removal does: an event of such a socket would wake the thread for a transfer nobody can
    /// act on, so it takes the socket out (see ``takeUnwanted(_:)``).
    mutating func update(socket: Int32, to request: Curl.SocketInterest) -> Change {
        let wanted: Interest? = switch request {
        case .read: Interest(readable: true, writable: false)
        case .write: Interest(readable: false, writable: true)
        case .readWrite: Interest(readable: true, writable: true)
        case .none, .remove: nil
        }
        // Read, then written whole with updateValue: the subscript's modify accessor allocated
        // its coroutine frame on the heap, twice a request.
        let current = entries[socket]
        guard let wanted else {
            if let current, current.isWanted {
                entries.updateValue(Entry(interest: current.interest, isWanted: false), forKey: socket)
            }
            return .none
        }
        entries.updateValue(Entry(interest: wanted, isWanted: true), forKey: socket)
        guard let current else { return .add(wanted) }
        return current.isWanted && current.interest == wanted ? .none : .modify(wanted)
    }

    /// Whether an event of `socket` belongs to a socket libcurl no longer wants; if so, it is
    /// forgotten here and the caller takes it out of the wait set.
    mutating func takeUnwanted(_ socket: Int32) -> Bool {
        guard let entry = entries[socket], !entry.isWanted else { return false }
        entries.removeValue(forKey: socket)
        return true
    }

    /// Forgets every socket: libcurl is gone, and the wait set with it.
    mutating func removeAll() {
        entries.removeAll()
    }
}
