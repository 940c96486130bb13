/// Idle easy handles kept for the next transfers, so a request reuses a handle (and its
/// buffers) instead of allocating one. Curl thread only; ``CurlScheduler`` decides when a
/// handle is taken, returned or destroyed, this type only stores them.
struct CurlEasyHandlePool {
    private var idle: [CurlEasyHandle] = []

    var count: Int { idle.count }

    /// An idle handle, or a new one when the scheduler's count and the pool disagree.
    mutating func take(_ source: CurlScheduler.HandleSource) throws(CurlError) -> CurlEasyHandle {
        if source == .reuseIdle, let handle = idle.popLast() { return handle }
        return try CurlEasyHandle()
    }

    /// Resets and keeps the handle, or lets it go (`curl_easy_cleanup` runs in its deinit).
    mutating func give(_ handle: CurlEasyHandle, _ fate: CurlScheduler.HandleFate) {
        handle.reset()
        if fate == .recycle { idle.append(handle) }
    }

    mutating func removeAll() {
        idle.removeAll()
    }
}
