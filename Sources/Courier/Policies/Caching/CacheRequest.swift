#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// What the cache reads of a request: its key, its directives (RFC 9111 §5.2.1) and whatever
/// keeps it from being answered from the cache.
///
/// A request's `cachePolicy` means what it means to URLSession: reload ignoring the cache,
/// revalidate, or take a stored response however stale, loading only when there is none or not
/// at all.
struct CacheRequest: Sendable {
    /// The primary key, nil when the request cannot be cached (no http or https URL).
    var key: CacheKey?
    var method: String
    /// The request's field values by lowercased name, for the fields a `Vary` may name.
    var fields: [String: String]
    /// Never answer from the cache, nor store what comes (`no-store`).
    var noStore = false
    /// Answer from the cache only after revalidating (`no-cache`, `Pragma: no-cache`).
    var noCache = false
    /// Never go to the network (`only-if-cached`).
    var onlyIfCached = false
    /// Accept no response older than this (`max-age`).
    var maximumAge: Int?
    /// Accept a stale response up to this many seconds past its lifetime (`max-stale`);
    /// `Int.max` for any.
    var maximumStale: Int?
    /// Accept only a response that stays fresh this much longer (`min-fresh`).
    var minimumFresh: Int?
    /// Carries a precondition or a range of its own, which the caller means for the server.
    var isConditional = false
    /// Go to the network without looking, and store what comes back
    /// (`URLRequest.CachePolicy.reloadIgnoringLocalCacheData`).
    var reload = false
    /// Carries `Authorization`, which limits what may be stored (§3.5).
    var hasAuthorization = false

    init(_ request: URLRequest) {
        method = request.httpMethod ?? "GET"
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let lowercased = name.lowercased()
            fields[lowercased] = fields[lowercased].map { "\($0), \(value)" } ?? value
        }
        self.fields = fields
        if let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        {
            components.fragment = nil
            key = components.string.map { CacheKey(method: method, url: $0) }
        }
        let directives = CacheControl(fields["cache-control"])
        noStore = directives.contains("no-store")
        noCache = directives.contains("no-cache")
            || (fields["cache-control"] == nil && fields["pragma"].map(CacheControl.init)?.contains("no-cache") == true)
        onlyIfCached = directives.contains("only-if-cached")
        maximumAge = directives.seconds("max-age").value
        maximumStale = directives.hasNoValue("max-stale") ? Int.max : directives.seconds("max-stale").value
        minimumFresh = directives.seconds("min-fresh").value
        isConditional = ["if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range", "range"]
            .contains { fields[$0] != nil }
        hasAuthorization = fields["authorization"] != nil
        applying(request.cachePolicy)
    }

    private mutating func applying(_ policy: URLRequest.CachePolicy) {
        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData:
            reload = true
        case .reloadRevalidatingCacheData:
            noCache = true
        case .returnCacheDataElseLoad:
            maximumStale = Int.max
        case .returnCacheDataDontLoad:
            maximumStale = Int.max
            onlyIfCached = true
        default:
            break
        }
    }

    /// The value the request has for the field `name`, as `Vary` compares it: trimmed, and nil
    /// when absent.
    func varyingValue(_ name: String) -> String? {
        fields[name.lowercased()]?.trimmingCharacters(in: .whitespaces)
    }

    /// Whether a response to this method may be stored; only GET is, here.
    var isStorableMethod: Bool { method == "GET" }

    /// Whether the method is safe (RFC 9110 §9.2.1): others invalidate what is stored (§4.4).
    var isSafeMethod: Bool { ["GET", "HEAD", "OPTIONS", "TRACE"].contains(method) }
}
