/// Idle easy handles kept for the next transfers, so a request reuses a handle (its buffers
/// and the transport's settings) instead of making one. Curl thread only; ``CurlScheduler``
/// decides when a handle is taken, returned or destroyed, this type only stores them.
struct CurlEasyHandlePool {
    private let configuration: CurlTransport.Configuration
    private var idle: [CurlEasyHandle] = []

    init(configuration: CurlTransport.Configuration) {
        self.configuration = configuration
    }

    var count: Int { idle.count }

    /// An idle handle, or a new one when the scheduler's count and the pool disagree.
    mutating func take(_ source: CurlScheduler.HandleSource) throws(CurlError) -> CurlEasyHandle {
        if source == .reuseIdle, let handle = idle.popLast() { return handle }
        return try CurlEasyHandle(configuration: configuration)
    }

    /// Keeps the handle, detached from its last transfer, or lets it go (`curl_easy_cleanup`
    /// runs in its deinit).
    mutating func give(_ handle: CurlEasyHandle, _ fate: CurlScheduler.HandleFate) {
        guard fate == .recycle else { return }
        handle.detach()
        idle.append(handle)
    }

    mutating func removeAll() {
        idle.removeAll()
    }
}
