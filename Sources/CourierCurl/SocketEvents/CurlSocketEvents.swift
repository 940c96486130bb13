#if os(Linux)
/// How the curl thread waits for the sockets of its transfers and drives libcurl: libcurl's
/// event-driven interface (`curl_multi_socket_action`) over an epoll set, which also holds what
/// wakes the thread.
///
/// `curl_multi_poll` builds a `pollfd` for every socket on every wake-up and
/// `curl_multi_perform` visits every transfer, so each transfer that is open but silent (a long
/// poll, an event stream, a body paused for a slow reader) costs every request on the transport
/// a little; here libcurl is called only for the sockets that are ready and for its timers.
///
/// It also drives multi handles of their own beside the loop's (``CurlPrivateMulti``, a
/// WebSocket's connection being opened): their sockets in the same set, their timers in the same
/// wait (CurlSocketEvents+PrivateMultis.swift).
///
/// Everything but ``wake()`` is for the curl thread only, which is also the only thread libcurl
/// calls the callbacks on (from inside the `curl_multi_*` calls it makes).
final class CurlSocketEvents: @unchecked Sendable {
    private let multi: Curl.MultiPointer
    let epoll: Epoll
    // Curl thread only, not checked for exclusivity at run time (see CurlEventLoop's state).
    @exclusivity(unchecked) private var registry = CurlSocketRegistry()
    @exclusivity(unchecked) private var timer = CurlTimer()
    /// libcurl must be called for its timers at the next ``drive()``, whatever the timer says.
    @exclusivity(unchecked) private var runsTimersNext = true
    @exclusivity(unchecked) private var readyCount = 0
    /// Sockets watched for others than libcurl (see CurlSocketWaiters.swift).
    @exclusivity(unchecked) private var waiters = CurlSocketWaiters<Waiter>()
    /// Multi handles of their own being driven, by identity, and their sockets.
    @exclusivity(unchecked) var privateMultis: [ObjectIdentifier: CurlPrivateMulti] = [:]
    @exclusivity(unchecked) var privateSockets = CurlPrivateSockets<ObjectIdentifier>()
    private(set) var isClosed = false

    init(multi: Curl.MultiPointer) throws(CurlError) {
        self.multi = multi
        epoll = try Epoll(capacity: 256)
        try Curl.setSocketCallbacks(
            multi, socket: socketCallback, timer: timerCallback, context: Unmanaged.passUnretained(self).toOpaque()
        )
    }

    /// Wakes the thread from ``wait(capMilliseconds:)``. Any thread; never after ``close()``.
    func wake() {
        epoll.wake()
    }

    /// Has libcurl run its timers at the next ``drive()``: a handle added or unpaused needs a
    /// turn, which libcurl asks for with a 0 ms timer that this makes sure of.
    func runTimersNext() {
        runsTimersNext = true
    }

    /// Lets libcurl act on the sockets the last wait found ready, then on its timers when due.
    func drive() throws(CurlError) {
        for index in 0..<readyCount {
            guard let event = epoll.event(at: index) else { continue }
            if waiters.contains(event.descriptor) {
                endWaits(on: event.descriptor, readable: event.readable || event.failed, writable: event.writable || event.failed)
                continue
            }
            // Before the loop's own unwanted sockets: one of those may have been closed and its
            // number reused by a connection being opened.
            if drivePrivateMulti(for: event) { continue }
            if registry.takeUnwanted(event.descriptor) {
                epoll.unwatch(event.descriptor)
                continue
            }
            // An error or a hang-up is handed over as readiness in the directions libcurl waits
            // for: it then reads or writes and learns the cause (a reset, say) from the socket,
            // as it does after `poll`.
            let interest = registry.interest(of: event.descriptor)
            let readable = event.readable || (event.failed && interest?.readable ?? true)
            let writable = event.writable || (event.failed && interest?.writable ?? false)
            try Curl.socketAction(multi, socket: event.descriptor, readable: readable, writable: writable)
        }
        readyCount = 0
        let now = ContinuousClock.now
        let due = timer.isDue(at: now)
        // Cleared before the call: libcurl may set the next timer from inside it.
        if due { timer.clear() }
        if due || runsTimersNext {
            runsTimersNext = false
            try Curl.socketAction(multi, socket: nil)
        }
        if !privateMultis.isEmpty { runDuePrivateTimers(at: now) }
    }

    /// Sleeps until a watched socket is ready, libcurl's timer is due, `cap` milliseconds have
    /// passed, or ``wake()``. After a wait that ran to the cap, libcurl's timers are run anyway:
    /// libcurl 7.88 can leave a transfer waiting for a connection without a timer.
    func wait(capMilliseconds cap: Int32) throws(CurlError) {
        let now = ContinuousClock.now
        var timeout = runsTimersNext ? 0 : timer.waitMilliseconds(at: now, cap: cap)
        if !privateMultis.isEmpty {
            for multi in privateMultis.values where timeout > 0 {
                timeout = multi.timer.waitMilliseconds(at: now, cap: timeout)
            }
        }
        readyCount = try epoll.wait(timeoutMilliseconds: timeout)
        if readyCount == 0, timeout == cap { runsTimersNext = true }
    }

    /// Closes the wait set, once libcurl is cleaned up (which reports its last sockets removed)
    /// and no thread can wake this one any more.
    func close() {
        isClosed = true
        registry.removeAll()
        for multi in privateMultis.values { detach(multi) }
        epoll.close()
        for waiter in waiters.takeAll() { waiter.resume(returning: .unavailable) }
    }

    // MARK: - Sockets libcurl does not drive

    typealias Waiter = CheckedContinuation<CurlSocketReadiness, Never>

    /// Curl thread only. Adds `socket` to the wait set until it is readable (or writable, when
    /// `writing`); returns the wait's id, or nil when it was resumed at once, `.unavailable`:
    /// the loop is closed, epoll refused the socket, or a task already waits that way.
    func addWaiter(_ waiter: Waiter, socket: Int32, writing: Bool) -> UInt64? {
        guard !isClosed, let (id, before, after) = waiters.add(waiter, socket: socket, writing: writing) else {
            waiter.resume(returning: .unavailable)
            return nil
        }
        guard epoll.watch(socket, readable: after.readable, writable: after.writable, isNew: before == nil) else {
            _ = waiters.take(id: id, socket: socket)
            waiter.resume(returning: .unavailable)
            return nil
        }
        return id
    }

    /// Curl thread only. Ends the wait `id` with `readiness`, if it still waits: its deadline
    /// passed, or its owner wants it to look at the socket again.
    func endWait(id: UInt64, socket: Int32, with readiness: CurlSocketReadiness) {
        let (waiter, remaining) = waiters.take(id: id, socket: socket)
        guard let waiter else { return }
        watch(socket, remaining)
        waiter.resume(returning: readiness)
    }

    /// Curl thread only. Ends the waits on `socket` in the directions given, as ready.
    func endWaits(on socket: Int32, readable: Bool, writable: Bool) {
        let (ended, remaining) = waiters.take(socket: socket, readable: readable, writable: writable)
        watch(socket, remaining)
        for waiter in ended { waiter.resume(returning: .ready) }
    }

    private func watch(_ socket: Int32, _ interest: CurlSocketRegistry.Interest?) {
        guard !isClosed else { return }
        if let interest {
            _ = epoll.watch(socket, readable: interest.readable, writable: interest.writable, isNew: false)
        } else {
            epoll.unwatch(socket)
        }
    }

    // MARK: - libcurl's callbacks

    /// False when epoll refused the change: libcurl then fails the call that reported it, rather
    /// than wait for a socket nobody watches.
    fileprivate func socket(_ socket: Int32, changedTo request: Curl.SocketInterest) -> Bool {
        guard !isClosed else { return true }
        switch registry.update(socket: socket, to: request) {
        case .none:
            return true
        case .add(let interest):
            return epoll.watch(socket, readable: interest.readable, writable: interest.writable, isNew: true)
        case .modify(let interest):
            return epoll.watch(socket, readable: interest.readable, writable: interest.writable, isNew: false)
        }
    }

    fileprivate func timerChanged(milliseconds: Int) {
        timer.set(milliseconds: milliseconds, now: .now)
    }
}

private let socketCallback: Curl.SocketCallback = { _, socket, what, context, _ in
    guard let context else { return 0 }
    let events = Unmanaged<CurlSocketEvents>.fromOpaque(context).takeUnretainedValue()
    return events.socket(socket, changedTo: Curl.SocketInterest(what: what)) ? 0 : -1
}

private let timerCallback: Curl.TimerCallback = { _, milliseconds, context in
    guard let context else { return 0 }
    Unmanaged<CurlSocketEvents>.fromOpaque(context).takeUnretainedValue().timerChanged(milliseconds: milliseconds)
    return 0
}

#else
/// How the curl thread waits for the sockets of its transfers and drives libcurl where there is
/// no epoll: `curl_multi_perform` and `curl_multi_poll`, woken by `curl_multi_wakeup`.
final class CurlSocketEvents: @unchecked Sendable {
    private let multi: Curl.MultiPointer

    init(multi: Curl.MultiPointer) throws(CurlError) {
        self.multi = multi
    }

    func wake() { Curl.wakeup(multi) }
    func runTimersNext() {}
    func drive() throws(CurlError) { try Curl.perform(multi) }
    func wait(capMilliseconds cap: Int32) throws(CurlError) { try Curl.poll(multi, timeoutMilliseconds: cap) }
    func close() {}

    /// `curl_multi_poll` waits for one multi handle only: without epoll no other is driven.
    func attach(_ multi: CurlPrivateMulti) throws(CurlError) {
        throw CurlError(kind: .multi, curlCode: 0, message: "a multi handle of its own needs epoll to be driven by the loop")
    }

    func detach(_ multi: CurlPrivateMulti) {}
}
#endif
