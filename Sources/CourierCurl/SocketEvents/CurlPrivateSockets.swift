/// The sockets of the multi handles the loop drives besides its own (``CurlPrivateMulti``):
/// which multi handle each belongs to, and what it waits for.
///
/// Unlike the loop's own sockets (``CurlSocketRegistry``), a socket leaves the wait set as soon
/// as libcurl gives it up: there are few, and only while connections are being opened, so
/// nothing is gained by keeping them. Curl thread only; generic over the owner so that tests
/// need no multi handle.
struct CurlPrivateSockets<Owner: Hashable> {
    typealias Interest = CurlSocketRegistry.Interest

    /// What the wait set must do for one socket.
    enum Change: Equatable, Sendable {
        case add(Interest)
        case modify(Interest)
        case remove
        case none
    }

    private struct Entry {
        var owner: Owner
        var interest: Interest
    }

    private var entries: [Int32: Entry] = [:]

    /// Asked for every epoll event that no waiter took: with no multi handle of its own being
    /// driven, as almost always, it answers without hashing the socket.
    var isEmpty: Bool { entries.isEmpty }

    var count: Int { entries.count }

    func owner(of socket: Int32) -> Owner? {
        entries[socket]?.owner
    }

    func interest(of socket: Int32) -> Interest? {
        entries[socket]?.interest
    }

    /// Records `owner`'s request for `socket` and returns the wait set's change. No interest
    /// (`CURL_POLL_NONE`) takes the socket out, as a removal does.
    mutating func update(socket: Int32, owner: Owner, to request: Curl.SocketInterest) -> Change {
        let wanted: Interest? = switch request {
        case .read: Interest(readable: true, writable: false)
        case .write: Interest(readable: false, writable: true)
        case .readWrite: Interest(readable: true, writable: true)
        case .none, .remove: nil
        }
        guard let wanted else {
            return entries.removeValue(forKey: socket) == nil ? .none : .remove
        }
        let current = entries.updateValue(Entry(owner: owner, interest: wanted), forKey: socket)
        guard let current else { return .add(wanted) }
        return current.owner == owner && current.interest == wanted ? .none : .modify(wanted)
    }

    /// Forgets `owner`'s sockets, which the caller takes out of the wait set: its multi handle
    /// is no longer driven.
    mutating func removeAll(of owner: Owner) -> [Int32] {
        let sockets = entries.compactMap { $0.value.owner == owner ? $0.key : nil }
        for socket in sockets { entries[socket] = nil }
        return sockets
    }

    /// Forgets every socket: the wait set is gone.
    mutating func removeAll() {
        entries.removeAll()
    }
}
