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

/// Header lists by the header set they were built from, per transport, bounded as
/// ``BoundedCache`` is: a client that varies a header on every request (a signature, a request
/// id) gets a list per request that lives as long as its transfer.
final class CurlHeaderListCache: Sendable {
    private let lists: BoundedCache<CurlRequestPlan.Headers, CurlHeaderList>

    init(capacity: Int) {
        lists = BoundedCache(capacity: capacity)
    }

    /// The shared list for `headers`, built on first use.
    func list(for headers: CurlRequestPlan.Headers) throws(CurlError) -> CurlHeaderList {
        try lists.value(for: headers) { () throws(CurlError) in try CurlHeaderList(lines: headers.lines) }
    }

    /// Header sets stored, for tests.
    var count: Int { lists.count }
}
