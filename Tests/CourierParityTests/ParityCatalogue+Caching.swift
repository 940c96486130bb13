import Courier
import CourierParity
import Foundation

extension ParityCatalogue {
    /// The cache (`Policies.cache`) over each engine: each case runs on a transport of each kind
    /// with a cache of its own, primed by the requests listed, against `/cache/{key}`, which
    /// counts visits per key (reset before each transport) and names the visit in its body, so
    /// an answer from the cache and one from the server differ in body and `X-Visit`. The
    /// server's record of the compared request shows what the cache sent, or that nothing was.
    static let caching: [ParityCase] = [
        ParityCase(
            "fresh response answered from the cache", .get("/cache/parity-hit?cc=max-age%3D600"),
            cachePrimedBy: [.get("/cache/parity-hit?cc=max-age%3D600")]
        ),
        ParityCase(
            "stale response revalidated, 304 answered with the stored body", .get("/cache/parity-revalidate?etag=v1&last_modified=1"),
            cachePrimedBy: [.get("/cache/parity-revalidate?etag=v1&last_modified=1")]
        ),
        ParityCase(
            "changed representation replaces the stored one", .get("/cache/parity-changed?etag=v&changes=1"),
            cachePrimedBy: [.get("/cache/parity-changed?etag=v&changes=1")]
        ),
        ParityCase(
            "Vary picks the variant whose request field matches",
            .get("/cache/parity-vary?cc=max-age%3D600&vary=Accept-Language", headers: [("Accept-Language", "en")]),
            cachePrimedBy: [
                .get("/cache/parity-vary?cc=max-age%3D600&vary=Accept-Language", headers: [("Accept-Language", "en")]),
                .get("/cache/parity-vary?cc=max-age%3D600&vary=Accept-Language", headers: [("Accept-Language", "de")]),
            ]
        ),
        ParityCase(
            "POST invalidates the stored response", .get("/cache/parity-invalidate?cc=max-age%3D600"),
            cachePrimedBy: [
                .get("/cache/parity-invalidate?cc=max-age%3D600"),
                .send("POST", "/cache/parity-invalidate?cc=max-age%3D600", body: Data("change".utf8)),
            ]
        ),
        ParityCase(
            "no-store is not kept", .get("/cache/parity-no-store?cc=no-store"),
            cachePrimedBy: [.get("/cache/parity-no-store?cc=no-store")]
        ),
        ParityCase(
            "only-if-cached with nothing stored answers 504 without a request",
            .get("/cache/parity-only-if-cached", headers: [("Cache-Control", "only-if-cached")]),
            cachePrimedBy: []
        ),
        ParityCase(
            "streamed answer from the cache", .get("/cache/parity-stream?cc=max-age%3D600&bytes=300000"),
            action: .stream(readDelay: nil), cachePrimedBy: [.get("/cache/parity-stream?cc=max-age%3D600&bytes=300000")]
        ),
    ]
}
