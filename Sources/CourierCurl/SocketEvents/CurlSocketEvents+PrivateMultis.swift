#if os(Linux)
/// Multi handles of their own (``CurlPrivateMulti``) driven beside the loop's: libcurl reports
/// their sockets and timers to callbacks of their own, which put the sockets in the loop's epoll
/// set under their owner's name; an event of such a socket, and a timer that is due, goes to
/// that multi handle's `curl_multi_socket_action`. A failure there fails that multi handle
/// only, never the loop.
extension CurlSocketEvents {
    /// Curl thread only. Starts driving `multi`, before any easy handle is added to it (adding
    /// one sets its first timer).
    func attach(_ multi: CurlPrivateMulti) throws(CurlError) {
        try Curl.setSocketCallbacks(
            multi.pointer, socket: privateSocketCallback, timer: privateTimerCallback,
            context: Unmanaged.passUnretained(multi).toOpaque()
        )
        multi.driver = self
        privateMultis[ObjectIdentifier(multi)] = multi
    }

    /// Curl thread only. Stops driving `multi`: libcurl calls nothing of the loop's for it from
    /// now on, and its sockets leave the wait set (a socket its easy handle keeps open is then
    /// its owner's to wait for).
    func detach(_ multi: CurlPrivateMulti) {
        Curl.clearSocketCallbacks(multi.pointer)
        multi.driver = nil
        privateMultis[ObjectIdentifier(multi)] = nil
        for socket in privateSockets.removeAll(of: ObjectIdentifier(multi)) where !isClosed {
            epoll.unwatch(socket)
        }
    }

    /// Hands `event` to the multi handle of its own whose socket it is; false when it is none's.
    func drivePrivateMulti(for event: Epoll.Event) -> Bool {
        guard !privateSockets.isEmpty, let owner = privateSockets.owner(of: event.descriptor),
              let multi = privateMultis[owner] else { return false }
        // As for the loop's own: a failure is readiness in the directions libcurl waits for.
        let interest = privateSockets.interest(of: event.descriptor)
        let readable = event.readable || (event.failed && interest?.readable ?? true)
        let writable = event.writable || (event.failed && interest?.writable ?? false)
        act(on: multi, socket: event.descriptor, readable: readable, writable: writable)
        return true
    }

    /// Runs the timers of the multi handles of their own that are due.
    func runDuePrivateTimers(at now: ContinuousClock.Instant) {
        for multi in privateMultis.values where multi.timer.isDue(at: now) {
            // Cleared before the call: libcurl may set the next timer from inside it.
            multi.timer.clear()
            act(on: multi, socket: nil)
        }
    }

    private func act(on multi: CurlPrivateMulti, socket: Int32?, readable: Bool = false, writable: Bool = false) {
        guard multi.failure == nil else { return }
        do {
            try Curl.socketAction(multi.pointer, socket: socket, readable: readable, writable: writable)
        } catch {
            multi.failure = error
        }
    }

    /// False when epoll refused the change: libcurl then fails that multi handle's call.
    fileprivate func privateSocket(_ socket: Int32, of multi: CurlPrivateMulti, changedTo request: Curl.SocketInterest) -> Bool {
        guard !isClosed else { return true }
        switch privateSockets.update(socket: socket, owner: ObjectIdentifier(multi), to: request) {
        case .none:
            return true
        case .add(let interest):
            return epoll.watch(socket, readable: interest.readable, writable: interest.writable, isNew: true)
        case .modify(let interest):
            return epoll.watch(socket, readable: interest.readable, writable: interest.writable, isNew: false)
        case .remove:
            epoll.unwatch(socket)
            return true
        }
    }
}

private let privateSocketCallback: Curl.SocketCallback = { _, socket, what, context, _ in
    guard let context else { return 0 }
    let multi = Unmanaged<CurlPrivateMulti>.fromOpaque(context).takeUnretainedValue()
    guard let driver = multi.driver else { return 0 }
    return driver.privateSocket(socket, of: multi, changedTo: Curl.SocketInterest(what: what)) ? 0 : -1
}

private let privateTimerCallback: Curl.TimerCallback = { _, milliseconds, context in
    guard let context else { return 0 }
    Unmanaged<CurlPrivateMulti>.fromOpaque(context).takeUnretainedValue().timer.set(milliseconds: milliseconds, now: .now)
    return 0
}
#endif
