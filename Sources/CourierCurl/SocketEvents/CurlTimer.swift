/// When libcurl must next be called for its own timeouts (`CURLMOPT_TIMERFUNCTION`), and how
/// long the thread may wait for its sockets until then.
///
/// libcurl calls back with -1 to cancel the timer, 0 to be called as soon as possible, and a
/// number of milliseconds otherwise. Curl thread only.
struct CurlTimer {
    private(set) var deadline: ContinuousClock.Instant?

    /// Records libcurl's request, made at `now`.
    mutating func set(milliseconds: Int, now: ContinuousClock.Instant) {
        deadline = milliseconds < 0 ? nil : now + .milliseconds(milliseconds)
    }

    /// Whether libcurl must be called for its timeouts now. Once it is, the caller clears the
    /// timer before calling, since libcurl may set the next one from inside that call.
    func isDue(at now: ContinuousClock.Instant) -> Bool {
        deadline.map { $0 <= now } ?? false
    }

    mutating func clear() {
        deadline = nil
    }

    /// How long to wait for sockets, in milliseconds: until the timer, at most `cap`, rounded up
    /// so the wait never ends just before the deadline and spins once more for nothing.
    func waitMilliseconds(at now: ContinuousClock.Instant, cap: Int32) -> Int32 {
        guard let deadline else { return cap }
        guard deadline > now else { return 0 }
        let (seconds, attoseconds) = (deadline - now).components
        let milliseconds = seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: min(Int64(cap), milliseconds))
    }
}
