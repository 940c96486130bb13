import Courier

/// One `curl_slist` of request header lines, shared by every transfer that sends the same
/// headers and freed when the last of them lets go.
///
/// Building a list costs two allocations per line (node and copy); most requests of an app
/// send one of a few header sets, so lists are built once per set (see
/// ``CurlHeaderListCache``). libcurl only reads a list while a transfer runs, and every
/// transfer keeps its list alive until it ends.
final class CurlHeaderList: @unchecked Sendable {
    // Immutable after init; libcurl only reads it.
    let pointer: Curl.StringListPointer?

    init(lines: [String]) throws(CurlError) {
        pointer = try Curl.makeList(lines)
    }

    deinit {
        Curl.freeList(pointer)
    }
}

/// Header lists by the header set they were built from, per transport.
///
/// Bounded: once `capacity` sets are stored, further sets get a list of their own that lives
/// as long as its transfer, so a client that varies a header on every request (a signature,
/// a request id) costs what it did without the cache and no memory grows.
final class CurlHeaderListCache: Sendable {
    let capacity: Int
    private let lists = Locked<[CurlRequestPlan.Headers: CurlHeaderList]>([:])

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The shared list for `headers`, built on first use.
    func list(for headers: CurlRequestPlan.Headers) throws(CurlError) -> CurlHeaderList {
        if let cached = lists.withLock({ $0[headers] }) { return cached }
        // Built outside the lock: two tasks may race to build the same set; the first stored wins.
        let built = try CurlHeaderList(lines: headers.lines)
        return lists.withLock { lists in
            if let cached = lists[headers] { return cached }
            guard lists.count < capacity else { return built }
            lists[headers] = built
            return built
        }
    }

    /// Header sets stored, for tests.
    var count: Int { lists.withLock { $0.count } }
}
