// The curl thread's housekeeping of the easy-handle pool: a burst's handles are kept while it
// lasts and let go once the loop has been quiet.
extension CurlEventLoop {
    /// The longest wait of a loop with nothing running; also how long it stays quiet (nothing
    /// running or waiting) before it lets the pool's surplus handles go, one such wait: pauses
    /// between bursts keep them, a transport left alone frees them.
    static let quietWaitMilliseconds: Int32 = 10_000

    /// Lets the pool's surplus handles go once the loop has been quiet for
    /// ``quietWaitMilliseconds``: the cleanups then cost no waiting request anything.
    func letSurplusHandlesGoWhenQuiet() {
        guard pool.hasSurplus else { return }
        guard running.isEmpty, !admission.hasWaiting else {
            quietSince = nil
            return
        }
        let now = ContinuousClock.now
        guard let since = quietSince else {
            quietSince = now
            return
        }
        if since.duration(to: now) >= .milliseconds(Int(Self.quietWaitMilliseconds)) {
            pool.letSurplusGo()
            quietSince = nil
        }
    }
}
