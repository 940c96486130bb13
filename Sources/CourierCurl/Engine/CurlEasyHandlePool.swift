/// The easy handles of one transport: idle ones kept for the next transfers, so a request
/// reuses a handle (its buffers and the transport's settings) instead of making one, and the
/// count of those that exist. Curl thread only.
///
/// Every handle given back is kept while the loop is busy, so idle handles never outnumber the
/// transfers that ran at once: many streams on one HTTP/2 connection each reuse a handle rather
/// than make one on the loop's thread and clean one up, which cost more than the rest of the
/// loop's own work per request (Benchmarks/README.md, "The burst's handles, kept for the
/// next"). Those beyond ``maximumIdle`` are the surplus, let go once the loop is quiet
/// (``letSurplusGo()``), so a transport that is not busy holds no more than before.
///
/// It is the one place handles are counted, and it counts only handles it made, so a handle
/// whose creation failed is never counted.
struct CurlEasyHandlePool {
    private let configuration: CurlTransport.Configuration
    /// The transport's Alt-Svc cache file, which every handle reads when made.
    private let altSvcFile: CurlAltSvcFile?
    /// The most easy handles kept idle once the loop is quiet.
    let maximumIdle: Int
    /// Most recently used last: ``take()`` reuses those, ``letSurplusGo()`` lets the oldest go.
    private var idle: [CurlEasyHandle] = []
    /// Easy handles that exist: in use plus idle.
    private(set) var live = 0

    init(configuration: CurlTransport.Configuration, maximumIdle: Int, altSvcFile: CurlAltSvcFile? = nil) {
        self.configuration = configuration
        self.altSvcFile = altSvcFile
        self.maximumIdle = max(0, maximumIdle)
    }

    var idleCount: Int { idle.count }

    /// More handles idle than ``maximumIdle``: kept from a burst, to be let go once it is over.
    var hasSurplus: Bool { idle.count > maximumIdle }

    /// An idle handle, or a new one. Idle handles that read an older Alt-Svc cache file are
    /// let go (they write nothing), so a new handle reads what another learned.
    mutating func take() throws(CurlError) -> CurlEasyHandle {
        while let handle = idle.popLast() {
            if handle.altSvcIsCurrent { return handle }
            live -= 1
        }
        let handle = try CurlEasyHandle(configuration: configuration, altSvcFile: altSvcFile)
        live += 1
        return handle
    }

    /// Keeps the handle, detached from its last transfer, when `keep` holds and the handle has
    /// nothing to write to the Alt-Svc cache file; otherwise returns it, no longer counted, for
    /// the caller to let go (`curl_easy_cleanup` runs in its deinit).
    @discardableResult
    mutating func give(_ handle: CurlEasyHandle, keep: Bool = true) -> CurlEasyHandle? {
        guard keep, handle.altSvcIsCurrent else {
            live -= 1
            return handle
        }
        handle.detach()
        idle.append(handle)
        return nil
    }

    /// Lets go of the idle handles beyond ``maximumIdle``, the least recently used first.
    mutating func letSurplusGo() {
        let surplus = idle.count - maximumIdle
        guard surplus > 0 else { return }
        idle.removeFirst(surplus)
        live -= surplus
    }

    mutating func removeAll() {
        live -= idle.count
        idle.removeAll()
    }
}
