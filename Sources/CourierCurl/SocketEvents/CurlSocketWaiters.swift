/// What ended a wait for a socket libcurl does not drive.
enum CurlSocketReadiness: Equatable, Sendable {
    /// The socket is ready in the direction waited for, or failed (the next call says how).
    case ready
    /// The wait's deadline passed first.
    case timedOut
    /// The loop is shutting down, or the wait was asked for off its thread.
    case unavailable
}

/// Sockets the event loop watches for someone other than libcurl (a WebSocket connection that
/// libcurl only opened), each with at most one waiter to read and one to write: in the engine a
/// task's continuation, in tests any value.
///
/// A wait is one-shot: the socket leaves the wait set once nobody waits on it, so a socket that
/// stays readable while its reader is slow does not keep waking the loop. That is how a slow
/// reader stops the socket being read.
struct CurlSocketWaiters<Waiter> {
    private struct Wait {
        var id: UInt64
        var waiter: Waiter
    }

    private struct Entry {
        var reader: Wait?
        var writer: Wait?

        var interest: CurlSocketRegistry.Interest {
            CurlSocketRegistry.Interest(readable: reader != nil, writable: writer != nil)
        }
    }

    private var entries: [Int32: Entry] = [:]
    private var nextID: UInt64 = 0

    /// Asked for every epoll event the loop handles: with no wait at all, as when no WebSocket
    /// is open, it answers without hashing the socket.
    func contains(_ socket: Int32) -> Bool {
        !entries.isEmpty && entries[socket] != nil
    }

    /// Adds a wait; returns its id, and the socket's interest before and after (nil: not in the
    /// set), or nil when a task already waits on the socket in that direction.
    mutating func add(
        _ waiter: Waiter, socket: Int32, writing: Bool
    ) -> (id: UInt64, before: CurlSocketRegistry.Interest?, after: CurlSocketRegistry.Interest)? {
        var entry = entries[socket] ?? Entry()
        let before = entries[socket]?.interest
        nextID &+= 1
        let wait = Wait(id: nextID, waiter: waiter)
        if writing {
            guard entry.writer == nil else { return nil }
            entry.writer = wait
        } else {
            guard entry.reader == nil else { return nil }
            entry.reader = wait
        }
        entries[socket] = entry
        return (nextID, before, entry.interest)
    }

    /// Takes the waits an event ends (every wait on the socket when it failed); returns them
    /// and the interest left, nil when nobody waits on the socket any more.
    mutating func take(
        socket: Int32, readable: Bool, writable: Bool
    ) -> (waiters: [Waiter], remaining: CurlSocketRegistry.Interest?) {
        guard var entry = entries[socket] else { return ([], nil) }
        var waiters: [Waiter] = []
        if readable, let reader = entry.reader {
            waiters.append(reader.waiter)
            entry.reader = nil
        }
        if writable, let writer = entry.writer {
            waiters.append(writer.waiter)
            entry.writer = nil
        }
        let remaining = entry.reader == nil && entry.writer == nil ? nil : entry.interest
        entries[socket] = remaining == nil ? nil : entry
        return (waiters, remaining)
    }

    /// Takes the wait with `id`, if it still waits; returns it and the interest left.
    mutating func take(id: UInt64, socket: Int32) -> (waiter: Waiter?, remaining: CurlSocketRegistry.Interest?) {
        guard let entry = entries[socket] else { return (nil, nil) }
        let readable = entry.reader?.id == id
        let writable = entry.writer?.id == id
        guard readable || writable else { return (nil, entry.interest) }
        let (waiters, remaining) = take(socket: socket, readable: readable, writable: writable)
        return (waiters.first, remaining)
    }

    /// Takes every wait, for a loop that shuts down.
    mutating func takeAll() -> [Waiter] {
        defer { entries = [:] }
        return entries.values.flatMap { [$0.reader?.waiter, $0.writer?.waiter].compactMap { $0 } }
    }
}
