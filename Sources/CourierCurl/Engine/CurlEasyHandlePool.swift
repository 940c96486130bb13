/// The easy handles of one transport: idle ones kept for the next transfers, so a request
/// reuses a handle (its buffers and the transport's settings) instead of making one, and the
/// count of those that exist. Curl thread only.
///
/// It is the one place handles are counted, and it counts only handles it made, so a handle
/// whose creation failed is never counted.
struct CurlEasyHandlePool {
    private let configuration: CurlTransport.Configuration
    /// The most easy handles kept idle for reuse.
    let maximumIdle: Int
    private var idle: [CurlEasyHandle] = []
    /// Easy handles that exist: in use plus idle.
    private(set) var live = 0

    init(configuration: CurlTransport.Configuration, maximumIdle: Int) {
        self.configuration = configuration
        self.maximumIdle = max(0, maximumIdle)
    }

    var idleCount: Int { idle.count }

    /// An idle handle, or a new one.
    mutating func take() throws(CurlError) -> CurlEasyHandle {
        if let handle = idle.popLast() { return handle }
        let handle = try CurlEasyHandle(configuration: configuration)
        live += 1
        return handle
    }

    /// Keeps the handle, detached from its last transfer, while fewer than ``maximumIdle`` wait
    /// and `keep` holds; otherwise returns it, no longer counted, for the caller to let go
    /// (`curl_easy_cleanup` runs in its deinit).
    @discardableResult
    mutating func give(_ handle: CurlEasyHandle, keep: Bool = true) -> CurlEasyHandle? {
        guard keep, idle.count < maximumIdle else {
            live -= 1
            return handle
        }
        handle.detach()
        idle.append(handle)
        return nil
    }

    mutating func removeAll() {
        live -= idle.count
        idle.removeAll()
    }
}
