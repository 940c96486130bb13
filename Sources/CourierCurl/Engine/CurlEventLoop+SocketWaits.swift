#if os(Linux)
/// Waits for sockets that libcurl opened but does not drive (a WebSocket's, after
/// `CURLOPT_CONNECT_ONLY`), in the loop's own epoll set: no thread blocks per socket.
extension CurlEventLoop {
    /// Waits until `socket` is readable (or writable, when `writing`), failed, or `deadline`
    /// passed. To be called from a task that prefers this loop as its executor, which puts the
    /// caller on the loop's thread; anywhere else, or on a loop shutting down, the answer is
    /// `.unavailable`.
    func waitUntilReady(
        _ socket: Int32, writing: Bool, deadline: ContinuousClock.Instant? = nil
    ) async -> CurlSocketReadiness {
        guard isCurrentThread else { return .unavailable }
        var timer: Task<Void, Never>?
        let readiness = await withCheckedContinuation { (continuation: CurlSocketEvents.Waiter) in
            guard let id = socketEvents.addWaiter(continuation, socket: socket, writing: writing), let deadline else { return }
            timer = Task(executorPreference: self) { [self] in
                try? await Task.sleep(until: deadline)
                guard !Task.isCancelled, isCurrentThread else { return }
                socketEvents.endWait(id: id, socket: socket, with: .timedOut)
            }
        }
        timer?.cancel()
        return readiness
    }

    /// Ends the waits on `socket` as if it were ready, so that their tasks look at it (and at
    /// their connection's state) again. Loop thread only.
    func endWaits(on socket: Int32) {
        guard isCurrentThread else { return }
        socketEvents.endWaits(on: socket, readable: true, writable: true)
    }
}
#endif
