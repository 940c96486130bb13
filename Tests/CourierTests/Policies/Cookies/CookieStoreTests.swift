import Courier
import Foundation
import Testing

/// The store against RFC 6265 §5.3 (storage) and §5.4 (the `Cookie` header). Cases named in
/// comments come from the http-state suite, which set cookies from
/// `http://home.example.org:8888/cookie-parser` and read them at `/cookie-parser-result`.
@Suite struct CookieStoreTests {
    static let setter = testURL("http://home.example.org:8888/cookie-parser?x")
    static let reader = testURL("http://home.example.org:8888/cookie-parser-result?x")

    private func store(_ fields: [String], from url: URL = CookieStoreTests.setter, now: Date = cookieEpoch) -> CookieStore {
        let store = CookieStore()
        store.store(setCookieFields: fields, from: url, now: now)
        return store
    }

    private func header(_ fields: [String], sentTo url: URL = CookieStoreTests.reader) -> String? {
        store(fields).cookieHeader(for: url, now: cookieEpoch)
    }

    // MARK: Sending, as the http-state suite saw it

    @Test(arguments: [
        (["foo=bar"], "foo=bar"),                                           // 0001
        (["foo=bar; Expires=Fri, 07 Aug 2007 08:04:19 GMT", "foo2=bar2; Expires=Fri, 07 Aug 2037 08:04:19 GMT"], "foo2=bar2"), // 0003
        (["foo=bar", "foo=qux"], "foo=qux"),                                // 0013
        (["z=y", "a=b"], "z=y; a=b"),                                       // 0016: oldest first
        (["a=b", "=", "c=d"], "a=b; c=d"),                                  // 0020
        (["a=b", "x=", "c=d"], "a=b; x=; c=d"),                             // 0022
        (["foo=bar; max-age=60", "foo1=bar; max-age=60", "foo=differentvalue; max-age=0"], "foo1=bar"), // MOZILLA0009
        (["six", "seven", " =eight", "test=six"], "test=six"),              // MOZILLA0017
        (["a=b; path=/", "x=y; path=/cookie-parser-result"], "x=y; a=b"),   // PATH0001: longest path first
        (["a=b; path=/cookie-parser-result", "x=y; path=/"], "a=b; x=y"),   // PATH0002
        (["foo=bar", "foo=qux; path=/cookie-parser-result/foo"], "foo=bar"), // PATH0006
        (["a=b;       path    =       /cookie-parser-result   ", "x=y;       path    =       /book   "], "a=b"), // PATH0029
        (["foo=bar; Path=/cookie-PARSER-result"], nil),                     // PATH0023: paths are case-sensitive
    ] as [([String], String?)])
    func sends(fields: [String], expected: String?) {
        #expect(header(fields) == expected)
    }

    @Test(arguments: [
        ("domain=home.example.org", "http://home.example.org:8888/r", true),            // DOMAIN0001
        ("domain=home.example.org", "http://sibling.example.org:8888/r", false),        // DOMAIN0002
        ("domain=home.example.org", "http://subdomain.home.example.org:8888/r", true),  // DOMAIN0004
        ("domain=.home.example.org", "http://sibling.example.org:8888/r", false),       // DOMAIN0006
        ("domain=.example.org", "http://sibling.example.org:8888/r", true),
        ("domain=home.example.org", "http://hoMe.eXaMplE.org:8888/r", true),            // DOMAIN0033
        ("domain=home.example.org", "http://ahome.example.org/r", false),
        ("domain=home.example.org", "http://home.example.org.evil.example/r", false),
        ("domain=home.example.org; domain=.example.org", "http://sibling.example.org:8888/r", true), // DOMAIN0025
        ("domain=.example.org; domain=home.example.org", "http://sibling.example.org:8888/r", false), // DOMAIN0024
        ("path=/", "http://subdomain.home.example.org:8888/r", false),                  // DOMAIN0029: host-only
        ("path=/", "http://example.org:8888/r", false),
        ("path=/", "https://home.example.org/r", true),                                 // any port, any scheme
    ])
    func domainMatching(attributes: String, requestURL: String, isSent: Bool) {
        #expect((header(["foo=bar; \(attributes)"], sentTo: testURL(requestURL)) == "foo=bar") == isSent)
    }

    @Test(arguments: [
        ("/cookie-parser-result/foo", "/cookie-parser-result/foo", true),      // PATH0007
        ("/cookie-parser-result/foo", "/cookie-parser-result/bar", false),     // PATH0008
        ("/cookie-parser-result/foo/qux", "/cookie-parser-result/foo", false), // PATH0009
        ("/cookie-parser-result/foo/qux", "/cookie-parser-result/foo/qux", true), // PATH0010
        ("/cookie-parser-result/foo/qux/", "/cookie-parser-result/foo/qux", false), // PATH0014
        ("/cookie-parser-result/foo/qux/", "/cookie-parser-result/foo/qux/", true), // PATH0015
        ("/cookie-parser-result/foo/", "/cookie-parser-result/foo/qux", true), // PATH0016
        ("/cookie-parser-result/foo/", "/cookie-parser-result/foo//qux", true), // PATH0017
        ("/cookie-parser-result/foo/", "/cookie-parser-result/fooqux", false), // PATH0018
        ("/docs", "/docs/web", true),
        ("/docs", "/docsets", false),
        ("/docs", "/", false),
        ("/", "", true),
        ("/cookie-parser-result/foo/qux?", "/cookie-parser-result/foo/qux", false), // PATH0024
        ("/cookie-parser-result/f%6Fo/bar", "/cookie-parser-result/foo/bar", false), // PATH0028: no decoding
        ("/f%6Fo", "/f%6Fo/bar", true),
    ])
    func pathMatching(cookiePath: String, requestPath: String, isSent: Bool) {
        let sent = header(["foo=bar; path=\(cookiePath)"], sentTo: testURL("http://home.example.org:8888\(requestPath)?q"))
        #expect((sent == "foo=bar") == isSent)
    }

    @Test func ordersByLongerPathThenByCreation() {
        // ORDERING0001, with the order RFC 6265 §5.4 requires.
        let store = CookieStore()
        let fields = [
            "key=val0;",
            "key=val1; path=/cookie-parser-result",
            "key=val2; path=/",
            "key=val3; path=/bar",
            "key=val4; domain=.example.org",
            "key=val5; domain=.example.org; path=/cookie-parser-result/foo",
        ]
        for (offset, field) in fields.enumerated() {
            store.store(setCookieFields: [field], from: CookieStoreTests.setter, now: cookieEpoch.addingTimeInterval(TimeInterval(offset)))
        }
        let header = store.cookieHeader(for: testURL("http://home.example.org:8888/cookie-parser-result/foo/baz"), now: cookieEpoch + 10)
        #expect(header == "key=val5; key=val1; key=val2; key=val4")
    }

    @Test func aReplacedCookieKeepsItsCreationTimeAndPlace() {
        let store = CookieStore()
        store.store(setCookieFields: ["a=1"], from: CookieStoreTests.setter, now: cookieEpoch)
        store.store(setCookieFields: ["b=1"], from: CookieStoreTests.setter, now: cookieEpoch + 1)
        store.store(setCookieFields: ["a=2; HttpOnly"], from: CookieStoreTests.setter, now: cookieEpoch + 2)
        #expect(store.cookies.map(\.value) == ["2", "1"])
        #expect(store.cookies.first?.creation == cookieEpoch)
        #expect(store.cookies.first?.isHTTPOnly == true)
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: cookieEpoch + 3) == "a=2; b=1")
    }

    @Test func aHostOnlyAndADomainCookieOfTheSameDomainReplaceEachOther() {
        // Name, domain and path identify a cookie; the host-only flag does not.
        let fields = ["foo=host", "foo=domain; Domain=home.example.org"]
        let store = store(fields)
        #expect(store.cookies.count == 1)
        #expect(store.cookies.first?.isHostOnly == false)
        #expect(store.cookieHeader(for: testURL("http://sub.home.example.org/"), now: cookieEpoch) == "foo=domain")
    }

    @Test func cookiesWithTheSameNameButDifferentDomainOrPathAreKeptApart() {
        let store = CookieStore()
        store.store(setCookieFields: ["a=host", "a=parent; Domain=example.org", "a=deep; Path=/deep"],
                    from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookies.count == 3)
        #expect(store.cookieHeader(for: testURL("http://home.example.org/deep/x"), now: cookieEpoch)
            == "a=deep; a=host; a=parent")
    }

    // MARK: Expiry

    @Test func maxAgeExpiresAtItsTimeAndTheCookieIsPurged() {
        let store = store(["a=b; Max-Age=60"])
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: cookieEpoch + 59) == "a=b")
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: cookieEpoch + 60) == nil)
        #expect(store.cookies.isEmpty)
    }

    @Test func expiresIsComparedWithTheGivenNow() {
        let store = store(["a=b; Expires=Wed, 01 Jan 2031 00:00:00 GMT"])
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: utc(2030, 12, 31, 23, 59, 59)) == "a=b")
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: utc(2031, 1, 1)) == nil)
    }

    @Test func anExpiredCookieRemovesTheStoredOneAndIsNotStored() {
        let store = store(["a=b", "c=d"])
        store.store(setCookieFields: ["a=gone; Max-Age=0"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookies.map(\.name) == ["c"])
        store.store(setCookieFields: ["c=gone; Expires=Thu, 01 Jan 1970 00:00:00 GMT"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookies.isEmpty)
        // An expired cookie for another path deletes nothing.
        let other = self.store(["a=b"])
        other.store(setCookieFields: ["a=b; Path=/x; Max-Age=0"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(other.cookies.count == 1)
    }

    @Test func storingPurgesCookiesThatExpiredMeanwhile() {
        let store = store(["short=1; Max-Age=10", "long=1; Max-Age=1000"])
        store.store(setCookieFields: ["new=1"], from: testURL("http://elsewhere.example/"), now: cookieEpoch + 20)
        #expect(store.cookies.map(\.name) == ["long", "new"])
    }

    // MARK: Secure

    @Test func secureCookiesGoOverHTTPSOnly() {
        let store = CookieStore()
        store.store(setCookieFields: ["s=1; Secure", "p=1"], from: testURL("https://home.example.org/"), now: cookieEpoch)
        #expect(store.cookieHeader(for: testURL("https://home.example.org/"), now: cookieEpoch) == "s=1; p=1")
        #expect(store.cookieHeader(for: testURL("http://home.example.org/"), now: cookieEpoch) == "p=1")
    }

    @Test func plainHTTPCannotOverwriteOrShadowASecureCookie() {
        let store = CookieStore()
        let https = testURL("https://www.example.org/")
        let http = testURL("http://www.example.org/")
        store.store(setCookieFields: ["s=secret; Secure; Domain=example.org"], from: https, now: cookieEpoch)
        store.store(setCookieFields: ["s=evil", "s=evil; Path=/sub", "s=evil; Domain=www.example.org"], from: http, now: cookieEpoch)
        #expect(store.cookies.map(\.value) == ["secret"])
        // Another name is no shadow, and https may replace the secure cookie.
        store.store(setCookieFields: ["t=1"], from: http, now: cookieEpoch)
        store.store(setCookieFields: ["s=plain; Domain=example.org"], from: https, now: cookieEpoch)
        #expect(store.cookies.map(\.value) == ["plain", "1"])
        #expect(store.cookies.first?.isSecure == false)
    }

    @Test func aSecureCookieWithANarrowerPathDoesNotBlockABroaderOne() {
        let store = CookieStore()
        store.store(setCookieFields: ["s=secret; Secure; Path=/admin"], from: testURL("https://h.example/"), now: cookieEpoch)
        store.store(setCookieFields: ["s=plain; Path=/"], from: testURL("http://h.example/"), now: cookieEpoch)
        #expect(store.cookies.count == 2)
    }

    // MARK: Hosts and schemes

    @Test func ipAddressCookiesGoToThatAddressOnly() {
        let store = CookieStore()
        store.store(setCookieFields: ["a=b"], from: testURL("http://127.0.0.1:8080/"), now: cookieEpoch)
        #expect(store.cookieHeader(for: testURL("http://127.0.0.1:9090/x"), now: cookieEpoch) == "a=b")
        #expect(store.cookieHeader(for: testURL("http://10.127.0.0.1/"), now: cookieEpoch) == nil)
        #expect(store.cookieHeader(for: testURL("http://localhost/"), now: cookieEpoch) == nil)
    }

    @Test func nothingIsStoredFromOrSentToOtherSchemes() {
        let store = CookieStore()
        store.store(setCookieFields: ["a=b"], from: testURL("file:///tmp/x"), now: cookieEpoch)
        store.store(setCookieFields: ["a=b"], from: testURL("ftp://home.example.org/"), now: cookieEpoch)
        #expect(store.cookies.isEmpty)
        store.store(setCookieFields: ["a=b"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookieHeader(for: testURL("ftp://home.example.org/"), now: cookieEpoch) == nil)
    }

    @Test func aSingleLabelPublicSuffixIsNeverStored() {
        #expect(store(["a=b; Domain=org"]).cookies.isEmpty)
        #expect(store(["a=b; Domain=.org"]).cookies.isEmpty)
    }

    @Test func removeAllEmptiesTheStore() {
        let store = store(["a=b", "c=d"])
        store.removeAll()
        #expect(store.cookies.isEmpty)
        #expect(store.cookieHeader(for: CookieStoreTests.reader, now: cookieEpoch) == nil)
    }

    // MARK: Bounds

    @Test func oneDomainOverItsBoundLosesItsLeastRecentlyUsedCookie() {
        let store = CookieStore(maximumCount: 100, maximumCountPerDomain: 3)
        let url = testURL("http://h.example/")
        store.store(setCookieFields: ["c1=1; Path=/one", "c2=1; Path=/two", "c3=1; Path=/three"], from: url, now: cookieEpoch)
        // Sending c1 later than the others were stored makes c2 the least recently used.
        _ = store.cookieHeader(for: testURL("http://h.example/one"), now: cookieEpoch + 1)
        store.store(setCookieFields: ["c4=1"], from: url, now: cookieEpoch + 2)
        #expect(store.cookies.map(\.name) == ["c1", "c3", "c4"])
    }

    @Test func amongCookiesUsedAtTheSameTimeTheFirstStoredIsEvictedFirst() {
        let store = CookieStore(maximumCount: 100, maximumCountPerDomain: 2)
        store.store(setCookieFields: ["a=1", "b=1", "c=1"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookies.map(\.name) == ["b", "c"])
    }

    @Test func theStoreOverItsBoundLosesTheLeastRecentlyUsedCookieOfAnyDomain() {
        let store = CookieStore(maximumCount: 3, maximumCountPerDomain: 50)
        for index in 1...5 {
            store.store(setCookieFields: ["c=\(index)"], from: testURL("http://h\(index).example/"), now: cookieEpoch + TimeInterval(index))
        }
        #expect(store.cookies.map(\.domain) == ["h3.example", "h4.example", "h5.example"])
    }

    @Test func aLargeStoreOverItsBoundLosesItsLeastRecentlyUsedTenth() {
        let store = CookieStore(maximumCount: 20, maximumCountPerDomain: 50)
        for index in 1...20 {
            store.store(setCookieFields: ["c=\(index)"], from: testURL("http://h\(index).example/"), now: cookieEpoch + TimeInterval(index))
        }
        #expect(store.cookies.count == 20)
        // Sending h1's cookie makes it recent, so h2 to h4 are the least recently used.
        _ = store.cookieHeader(for: testURL("http://h1.example/"), now: cookieEpoch + 30)
        store.store(setCookieFields: ["c=21"], from: testURL("http://h21.example/"), now: cookieEpoch + 31)
        #expect(store.cookies.map(\.value) == ["1"] + (5...21).map(String.init))
    }

    @Test func aFloodOfCookiesStaysWithinTheDefaultBounds() {
        let store = CookieStore()
        let flood = (0..<1000).map { "flood\($0)=x" }
        store.store(setCookieFields: flood, from: testURL("http://hostile.example/"), now: cookieEpoch)
        #expect(store.cookies.count == 50)
        #expect(store.cookies.last?.name == "flood999")
        for host in 0..<80 {
            store.store(setCookieFields: (0..<60).map { "c\($0)=x" }, from: testURL("http://h\(host).hostile.example/"), now: cookieEpoch)
        }
        #expect((2700...3000).contains(store.cookies.count))
    }

    @Test func zeroOrNegativeBoundsKeepNothing() {
        let store = CookieStore(maximumCount: -1, maximumCountPerDomain: 10)
        store.store(setCookieFields: ["a=b"], from: CookieStoreTests.setter, now: cookieEpoch)
        #expect(store.cookies.isEmpty)
    }

    // MARK: Concurrency

    @Test func servesConcurrentRequests() async {
        let store = CookieStore()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for index in 0..<50 {
                        let url = testURL("http://h\(task).example/")
                        store.store(setCookieFields: ["c\(index)=\(task)"], from: url, now: cookieEpoch)
                        _ = store.cookieHeader(for: url, now: cookieEpoch)
                    }
                }
            }
        }
        #expect(store.cookies.count == 16 * 50)
        #expect(store.cookieHeader(for: testURL("http://h3.example/"), now: cookieEpoch)?.hasPrefix("c0=3; c1=3") == true)
    }
}
