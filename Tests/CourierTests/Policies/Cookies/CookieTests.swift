import Courier
import Foundation
import Testing

/// The `Set-Cookie` parser against RFC 6265 §5.2 and §5.3. Many cases come from the http-state
/// test suite that accompanied the RFC (its names in comments); that suite requested
/// `http://home.example.org:8888/cookie-parser`.
@Suite struct CookieTests {
    static let parserURL = testURL("http://home.example.org:8888/cookie-parser?parser")

    private func parse(_ field: String, from url: URL = CookieTests.parserURL, now: Date = cookieEpoch) -> Cookie? {
        Cookie(setCookie: field, requestURL: url, now: now)
    }

    // MARK: Name and value

    @Test(arguments: [
        ("foo=bar", "foo", "bar"),                                          // 0001
        ("x=", "x", ""),                                                    // 0022
        ("  A  = BC  ;foo;;;   bar", "A", "BC"),                            // CHROMIUM0014
        ("  A=== BC  ;foo;;;   bar", "A", "== BC"),                         // CHROMIUM0015
        ("aBc=\"zzz \"   ;", "aBc", "\"zzz \""),                            // CHROMIUM0002
        ("aBc=\"zz;pp\" ; ;", "aBc", "\"zz"),                               // CHROMIUM0004
        ("a=\"B", "a", "\"B"),                                              // CHROMIUM0011
        ("foo bar=baz", "foo bar", "baz"),                                  // NAME0030
        ("\"a=b\"=bar", "\"a", "b\"=bar"),                                  // NAME0020
        ("$Version=1; foo=bar", "$Version", "1"),                           // NAME0024
        ("a =bar", "a", "bar"),                                             // NAME0018
        ("foo=  bar", "foo", "bar"),                                        // VALUE0001
        ("foo=\"  bar \"", "foo", "\"  bar \""),                            // VALUE0003
        ("foo=\"bar=baz\"", "foo", "\"bar=baz\""),                          // VALUE0005
        ("   foo     =       bar             ;       ttt", "foo", "bar"),   // VALUE0006
        ("z=y, a=b", "z", "y, a=b"),                                        // 0017: one field, one cookie
        ("\t foo\t=\tbar baz\t ", "foo", "bar baz"),                        // tabs are WSP too
        ("a=b\tc", "a", "b\tc"),                                            // an inner tab is data
        ("\u{6625}\u{8282}=\u{5BB6}\u{8DEF}", "\u{6625}\u{8282}", "\u{5BB6}\u{8DEF}"), // CHARSET0002
    ])
    func nameAndValue(field: String, name: String, value: String) throws {
        let cookie = try #require(parse(field))
        #expect(cookie.name == name)
        #expect(cookie.value == value)
    }

    @Test(arguments: [
        "foo",                      // 0004: no "="
        "",                         // CHROMIUM0021
        "    ",                     // CHROMIUM0018
        "=",                        // NAME0029
        "=a",                       // NAME0028
        "=a=bar",                   // NAME0017
        "===a=bar",                 // NAME0025
        " =eight",                  // MOZILLA0016
        "foo;bar=baz",              // NAME0023: the "=" is in an attribute
        "BLAHHH; path=/;",          // CHROMIUM0009
        "five; max-age=2.63,",      // MOZILLA0012
    ])
    func ignoresAFieldWithoutANameValuePair(field: String) {
        #expect(parse(field) == nil)
    }

    @Test(arguments: ["AAA=BB\u{0}ZYX", "AAA=BB\rZYX", "AAA=BB\nZYX", "a=b; Path=/\u{1}", "a=\u{7F}"])
    func ignoresAFieldWithAControlCharacter(field: String) {
        #expect(parse(field) == nil)
    }

    @Test func acceptsANameAndValueOfUpTo4096BytesTogether() {
        let name = String(repeating: "n", count: 96)
        #expect(parse("\(name)=\(String(repeating: "v", count: 4000))")?.name == name)
        #expect(parse("\(name)=\(String(repeating: "v", count: 4001))") == nil)
        // Bytes, not characters: 2049 two-byte characters are 4098 bytes.
        #expect(parse("é=\(String(repeating: "é", count: 2047))") != nil)
        #expect(parse("é=\(String(repeating: "é", count: 2048))") == nil)
    }

    @Test func splitsOnOctetsSoACombiningMarkCannotHideASemicolon() throws {
        // ";\u{301}" is one Character; the ";" must still end the value.
        let cookie = try #require(parse("a=b;\u{301}Secure"))
        #expect(cookie.value == "b")
    }

    // MARK: Attributes

    @Test(arguments: [
        ("foo=bar; Secure", true),          // ATTRIBUTE0001
        ("foo=bar; seCURe", true),          // ATTRIBUTE0002
        ("foo=bar; \"Secure\"", false),     // ATTRIBUTE0003
        ("foo=bar; Secure=", true),         // ATTRIBUTE0004
        ("foo=bar; Secure=aaaa", true),     // ATTRIBUTE0005
        ("foo=bar; Secure qux", false),     // ATTRIBUTE0006
        ("foo=bar; Secure =aaaaa", true),   // ATTRIBUTE0007
        ("foo=bar;       Secure     ;", true), // ATTRIBUTE0013
        ("foo=bar; qux=\"aaa;bbb\"; Secure", true), // ATTRIBUTE0026
    ])
    func secureAttribute(field: String, isSecure: Bool) throws {
        let cookie = try #require(parse(field, from: testURL("https://home.example.org/")))
        #expect(cookie.isSecure == isSecure)
    }

    @Test func refusesASecureCookieFromPlainHTTP() {
        #expect(parse("foo=bar; Secure") == nil)  // 0010
        #expect(parse("foo=bar; secure", from: testURL("http://home.example.org/")) == nil)
        #expect(parse("foo=bar; Secure qux") != nil)
    }

    @Test func httpOnlyAndSameSite() throws {
        let cookie = try #require(parse("a=b; HTTPONLY; SameSite=lax"))
        #expect(cookie.isHTTPOnly)
        #expect(cookie.sameSite == .lax)
        #expect(parse("a=b; SameSite=STRICT")?.sameSite == .strict)
        #expect(parse("a=b; SameSite=None")?.sameSite == Cookie.SameSite.none)
        #expect(parse("a=b; SameSite=Strict; SameSite=bogus")?.sameSite == nil)
        #expect(parse("a=b")?.sameSite == nil)
        #expect(parse("a=b")?.isHTTPOnly == false)
    }

    @Test func unknownAttributesAreIgnored() throws {
        let cookie = try #require(parse("foo=bar; version=1; customvalue=\"1000 or more\"; abracadabra!"))
        #expect(cookie == Cookie(name: "foo", value: "bar", domain: "home.example.org", creation: cookieEpoch))
    }

    @Test func anAttributeValueOver1024BytesIsIgnored() throws {
        let long = "/" + String(repeating: "p", count: 1024)
        #expect(parse("a=b; Path=\(long.dropLast())")?.path == String(long.dropLast()))
        #expect(parse("a=b; Path=\(long)")?.path == "/")
    }

    // MARK: Expiry

    @Test func aCookieWithoutExpiryIsASessionCookie() throws {
        let cookie = try #require(parse("foo=bar"))
        #expect(cookie.expires == nil)
        #expect(!cookie.isExpired(at: .distantFuture))
        #expect(cookie.creation == cookieEpoch)
    }

    @Test func expiresIsReadWithTheCookieDateAlgorithm() throws {
        let cookie = try #require(parse("foo=bar; Expires=Wed, 21 Oct 2015 07:28:00 GMT"))
        #expect(cookie.expires == utc(2015, 10, 21, 7, 28, 0))
        #expect(cookie.isExpired(at: cookieEpoch))
    }

    @Test func anUnparsableExpiresLeavesAnEarlierOneInForce() {
        #expect(parse("a=b; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Expires=soon")?.expires == utc(2015, 10, 21, 7, 28, 0))
        #expect(parse("a=b; Expires=soon")?.expires == nil)
        #expect(parse("a=b; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Expires=Thu, 22 Oct 2015 07:28:00 GMT")?.expires
            == utc(2015, 10, 22, 7, 28, 0))
    }

    @Test(arguments: [
        ("60", 60.0), ("1", 1.0), ("0010", 10.0), ("31536000", 31_536_000.0),
    ])
    func maxAgeCountsFromNow(value: String, seconds: TimeInterval) {
        #expect(parse("a=b; Max-Age=\(value)")?.expires == cookieEpoch.addingTimeInterval(seconds))
    }

    @Test(arguments: ["0", "-1", "-20", "-0", "-99999999999999999999999"])
    func maxAgeOfZeroOrLessHasAlreadyExpired(value: String) throws {
        let cookie = try #require(parse("a=b; Max-Age=\(value)"))
        #expect(cookie.expires == .distantPast)
        #expect(cookie.isExpired(at: cookieEpoch))
    }

    @Test(arguments: ["", "+5", "1.5", "-", "5s", " ", "50,399", "0x10", "\u{0661}"])
    func aMaxAgeThatIsNotDigitsIsIgnored(value: String) {
        #expect(parse("a=b; Max-Age=\(value)")?.expires == nil)
        #expect(parse("a=b; Max-Age=60; Max-Age=\(value)")?.expires == cookieEpoch.addingTimeInterval(60))
    }

    @Test func aHugeMaxAgeSaturatesAtTheLatestRepresentableDate() {
        #expect(parse("a=b; Max-Age=99999999999999999999999999")?.expires == .distantFuture)
        #expect(parse("a=b; Max-Age=9223372036854775807")?.expires == .distantFuture)
    }

    @Test func maxAgeWinsOverExpiresInEitherOrder() {
        let later = "Expires=Fri, 31 Dec 9999 23:59:59 GMT"
        #expect(parse("a=b; Max-Age=60; \(later)")?.expires == cookieEpoch.addingTimeInterval(60))
        #expect(parse("a=b; \(later); Max-Age=60")?.expires == cookieEpoch.addingTimeInterval(60))
        #expect(parse("a=b; Max-Age=60; Max-Age=120")?.expires == cookieEpoch.addingTimeInterval(120))
        #expect(parse("a=b; Max-Age=-1; Expires=Fri, 31 Dec 9999 23:59:59 GMT")?.isExpired(at: cookieEpoch) == true)
    }

    // MARK: Domain

    @Test(arguments: [
        ("domain=home.example.org", "home.example.org"),        // DOMAIN0001
        ("domain=.home.example.org", "home.example.org"),       // DOMAIN0003
        ("domain=.example.org", "example.org"),                 // DOMAIN0008
        ("domain=example.org", "example.org"),                  // DOMAIN0009
        ("domain=  .home.example.org", "home.example.org"),     // DOMAIN0012
        ("domain=home.eXaMpLe.org", "home.example.org"),        // DOMAIN0026
        ("domain=home.example.com; domain=home.example.org", "home.example.org"), // DOMAIN0035
        ("domain=example.org; domain=", "example.org"),         // OPTIONAL_DOMAIN0041: empty is ignored
    ])
    func aMatchingDomainMakesADomainCookie(attributes: String, domain: String) throws {
        let cookie = try #require(parse("foo=bar; \(attributes)"))
        #expect(cookie.domain == domain)
        #expect(!cookie.isHostOnly)
    }

    @Test(arguments: [
        "domain=..home.example.org",            // DOMAIN0010
        "domain=home..example.org",             // DOMAIN0011
        "domain=  .  home.example.org",         // DOMAIN0013
        "domain=home.example.org.",             // DOMAIN0014
        "domain=home.example.org .",            // DOMAIN0016
        "domain=.org",                          // DOMAIN0017: a single label is a public suffix
        "domain=org",
        "domain=.org.",                         // DOMAIN0018
        "domain=\"home.example.org\"",          // DOMAIN0021
        "domain=home.example.org; domain=home.example.com", // DOMAIN0034
        "domain=home.example.org:8888",         // DOMAIN0027
        "domain=subdomain.home.example.org",    // DOMAIN0028
        "domain=sibling.example.org",           // DOMAIN0007
        "domain=ome.example.org",               // a suffix, but not at a label boundary
        "domain=b\u{00FC}cher.example.org",     // no punycode conversion
    ])
    func aDomainTheHostDoesNotMatchIgnoresTheCookie(attributes: String) {
        #expect(parse("foo=bar; \(attributes)") == nil)
    }

    @Test func withoutDomainTheCookieIsHostOnly() throws {
        let cookie = try #require(parse("foo=bar", from: testURL("http://hoMe.eXaMplE.org:8888/x")))
        #expect(cookie.domain == "home.example.org")
        #expect(cookie.isHostOnly)
        #expect(parse("foo=bar; domain=")?.isHostOnly == true)     // OPTIONAL_DOMAIN0030
        #expect(parse("foo=bar; domain=.")?.isHostOnly == true)    // an empty domain after the dot
    }

    @Test func aSingleLabelDomainNamingTheHostItselfIsHostOnly() throws {
        let cookie = try #require(parse("a=b; Domain=localhost", from: testURL("http://localhost:8080/")))
        #expect(cookie.domain == "localhost")
        #expect(cookie.isHostOnly)
        #expect(parse("a=b; Domain=com", from: testURL("http://example.com/")) == nil)
    }

    @Test func cookiesOfAnIPAddressAreHostOnly() throws {
        let ip = testURL("http://127.0.0.1:8080/")
        #expect(parse("a=b", from: ip)?.isHostOnly == true)
        let named = try #require(parse("a=b; Domain=127.0.0.1", from: ip))
        #expect(named.domain == "127.0.0.1")
        #expect(named.isHostOnly)
        #expect(parse("a=b; Domain=0.0.1", from: ip) == nil)
        #expect(parse("a=b; Domain=.0.0.1", from: ip) == nil)
        let v6 = try #require(parse("a=b", from: testURL("http://[::1]:8080/")))
        #expect(v6.domain == "::1")
        #expect(v6.isHostOnly)
    }

    // MARK: Path

    @Test(arguments: [
        ("http://h.example/", "/"),
        ("http://h.example", "/"),
        ("http://h.example/cookie-parser?x=/a/b", "/"),
        ("http://h.example/a/b/c.html", "/a/b"),
        ("http://h.example/a/b/", "/a/b"),
        ("http://h.example/a/", "/a"),
        ("http://h.example/a//b", "/a/"),
        ("http://h.example/f%6Fo/bar", "/f%6Fo"),
    ])
    func theDefaultPathIsTheDirectoryOfTheRequestPath(requestURL: String, path: String) {
        #expect(parse("a=b", from: testURL(requestURL))?.path == path)
    }

    @Test(arguments: [
        ("Path", "/a"),                                 // ATTRIBUTE0014
        ("Path=", "/a"),                                // ATTRIBUTE0015
        ("Path=/", "/"),
        ("Path=/qux", "/qux"),
        ("Path    =/qux", "/qux"),                      // ATTRIBUTE0018
        ("Path=    /qux", "/qux"),                      // ATTRIBUTE0019
        ("Path=/qux      ; taz", "/qux"),               // ATTRIBUTE0020
        ("Path=/qux; Path=/", "/"),                     // ATTRIBUTE0021
        ("Path=qux", "/a"),                             // not absolute: the default path
        ("path=/dog; path=", "/a"),                     // PATH0030: the last one counts, as default
        ("path=; path=/dog", "/dog"),                   // PATH0031
        ("Path=/cookie-PARSER-result", "/cookie-PARSER-result"), // case is kept
        ("path=\"/q;\"", "/a"),                         // PATH0027: quotes are not a path
    ])
    func pathAttribute(attributes: String, path: String) {
        #expect(parse("a=b; \(attributes)", from: testURL("http://h.example/a/b"))?.path == path)
    }

    // MARK: Prefixes and schemes

    @Test func secureAndHostPrefixesNeedTheirAttributes() {
        let https = testURL("https://www.example.org/a/b")
        #expect(parse("__Secure-a=b", from: https) == nil)
        #expect(parse("__Secure-a=b; Secure", from: https) != nil)
        #expect(parse("__secure-a=b", from: https) == nil)
        #expect(parse("__Host-a=b; Secure; Path=/", from: https)?.isHostOnly == true)
        #expect(parse("__Host-a=b; Secure", from: https) == nil)
        #expect(parse("__Host-a=b; Path=/", from: https) == nil)
        #expect(parse("__Host-a=b; Secure; Path=/a", from: https) == nil)
        #expect(parse("__Host-a=b; Secure; Path=/; Domain=www.example.org", from: https) == nil)
        #expect(parse("__HOST-a=b; Secure; Path=/; Domain=example.org", from: https) == nil)
        #expect(parse("__Hostile=b", from: https) != nil)
    }

    @Test(arguments: ["file:///tmp/a", "ftp://example.org/", "data:text/plain,hi", "ws://example.org/"])
    func onlyHTTPAndHTTPSURLsSetCookies(requestURL: String) {
        #expect(parse("a=b", from: testURL(requestURL)) == nil)
    }

    @Test func theMemberwiseInitializerKeepsWhatItIsGiven() {
        let cookie = Cookie(name: "n", value: "v", domain: "example.org", isHostOnly: false, path: "/p",
                            expires: cookieEpoch, isSecure: true, isHTTPOnly: true, sameSite: .strict, creation: .distantPast)
        #expect(cookie.domain == "example.org" && !cookie.isHostOnly && cookie.path == "/p")
        #expect(cookie.isSecure && cookie.isHTTPOnly && cookie.sameSite == .strict)
        #expect(cookie.isExpired(at: cookieEpoch))
        #expect(!cookie.isExpired(at: cookieEpoch.addingTimeInterval(-1)))
    }
}
