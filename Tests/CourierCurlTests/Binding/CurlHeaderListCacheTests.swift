import Testing
@testable import CourierCurl

@Suite("CurlHeaderListCache: one header list per header set")
struct CurlHeaderListCacheTests {
    private func headers(_ fields: [String: String], suppressing: Bool = true) -> CurlRequestPlan.Headers {
        CurlRequestPlan.Headers(fields: fields, sendsBody: true, keepsFormContentType: !suppressing, userAgent: "test")
    }

    @Test func equalHeaderSetsShareOneList() throws {
        let cache = CurlHeaderListCache(capacity: 4)
        let first = try cache.list(for: headers(["A": "1"]))
        let again = try cache.list(for: headers(["A": "1"]))
        #expect(first === again)
        #expect(try cache.list(for: headers(["A": "2"])) !== first)
        #expect(try cache.list(for: headers(["A": "1"], suppressing: false)) !== first)
        #expect(cache.count == 3)
    }

    @Test func setsBeyondTheCapacityGetListsOfTheirOwn() throws {
        let cache = CurlHeaderListCache(capacity: 2)
        _ = try cache.list(for: headers(["A": "1"]))
        _ = try cache.list(for: headers(["A": "2"]))
        let third = try cache.list(for: headers(["A": "3"]))
        #expect(third.pointer != nil)
        #expect(try cache.list(for: headers(["A": "3"])) !== third)
        #expect(cache.count == 2)
    }
}
