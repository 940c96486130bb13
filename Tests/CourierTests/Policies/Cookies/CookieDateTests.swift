import Courier
import Foundation
import Testing

/// `Expires` values through the cookie-date algorithm of RFC 6265 §5.1.1. Most cases come from
/// the http-state suite's date examples (including Chromium's); the expected instants come from
/// `Calendar`, not from the algorithm.
@Suite struct CookieDateTests {
    private func expiry(_ date: String) -> Date? {
        Cookie(setCookie: "a=b; Expires=\(date)", requestURL: testURL("http://example.org/"), now: cookieEpoch)?.expires
    }

    @Test(arguments: [
        ("Mon, 10-Dec-2007 17:02:24 GMT", utc(2007, 12, 10, 17, 2, 24)),
        ("Wed, 09 Dec 2009 16:27:23 GMT", utc(2009, 12, 9, 16, 27, 23)),
        ("Thursday, 01-Jan-1970 00:00:00 GMT", utc(1970, 1, 1)),
        ("Mon Dec 10 16:32:30 2007 GMT", utc(2007, 12, 10, 16, 32, 30)),
        ("Wednesday, 01-Jan-10 00:00:00 GMT", utc(2010, 1, 1)),
        ("Mon, 10-Dec-07 20:35:03 GMT", utc(2007, 12, 10, 20, 35, 3)),
        ("Wed, 1 Jan 2020 00:00:00 GMT", utc(2020, 1, 1)),
        ("Saturday, 8-Dec-2012 21:24:09 GMT", utc(2012, 12, 8, 21, 24, 9)),
        ("Thu, 31 Dec 23:55:55 2037 GMT", utc(2037, 12, 31, 23, 55, 55)),
        ("Sun,  9 Dec 2012 13:42:05 GMT", utc(2012, 12, 9, 13, 42, 5)),
        ("Wed Dec 12 2007 08:44:07 GMT-0500 (EST)", utc(2007, 12, 12, 8, 44, 7)),
        ("Wednesday, 01-Jan-10 0:0:00 GMT", utc(2010, 1, 1)),
        ("Thu, 10 Dec 2009 13:57:2 GMT", utc(2009, 12, 10, 13, 57, 2)),
        ("Thu, 19/Apr\\2007 16:00:00 GMT", utc(2007, 4, 19, 16)),
        ("Mon, 18-Apr-77 22:50:13 GMT", utc(1977, 4, 18, 22, 50, 13)),
        ("WillyWonka  ,  18-apr-07   22:50:12", utc(2007, 4, 18, 22, 50, 12)),
        ("Partyday, 18- April-07 22:50:12", utc(2007, 4, 18, 22, 50, 12)),
        ("Wednes, 1-Januar-2003 00:00:00 GMT", utc(2003, 1, 1)),
        ("Sat, 15-Apr-17 21:01:22 11:22:33", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 ::00 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("Sat, 15-Apr-17 boink:z 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("22:50:12 Thu Apr 18 2007 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("Thu Apr 22:50:12 18 2007 GMT", utc(2007, 4, 18, 22, 50, 12)),
        ("15-Sat, Apr 21:01:22 GMT 17", utc(2017, 4, 15, 21, 1, 22)),
        ("15 17 Apr 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("Apr 15 17 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("2017 April 15 21:01:22", utc(2017, 4, 15, 21, 1, 22)),
        ("1 jan 69 0:0:0", utc(2069, 1, 1)),
        ("1 jan 70 0:0:0", utc(1970, 1, 1)),
        ("1 jan 0070 0:0:0", utc(1970, 1, 1)),
        ("Tue, 29 Feb 2000 00:00:00 GMT", utc(2000, 2, 29)),
        ("Thu, 29 Feb 2024 12:00:00 GMT", utc(2024, 2, 29, 12)),
        ("Sat, 01 Jan 1601 00:00:00 GMT", utc(1601, 1, 1)),
        ("Fri, 31 Dec 3999 23:59:59 GMT", utc(3999, 12, 31, 23, 59, 59)),
    ])
    func parses(text: String, expected: Date) {
        #expect(expiry(text) == expected)
    }

    @Test(arguments: [
        "Sat, 15-Apr-17 91:22:33 21:01:22",         // the first time token is out of range
        "98 April 17 21:01:22",                     // day 98
        "Thu, 012-Aug-2008 20:49:07 GMT",           // three digits are no day
        "Thu, 12-Aug-31841 20:49:07 GMT",           // five digits are no year
        "Thu, 12-Aug-9999999999 20:49:07 GMT",
        "Thu, 999999999999-Aug-2007 20:49:07 GMT",
        "Thu, 12-Aug-2007 20:61:99999999999 GMT",
        "IAintNoDateFool",
        "",
        "Thu, 31 Feb 2012 12:00:00 GMT",            // a day the month does not have
        "Wed, 29 Feb 2100 12:00:00 GMT",            // 2100 is no leap year
        "Wed, 00 Jan 2020 00:00:00 GMT",
        "Wed, 32 Jan 2020 00:00:00 GMT",
        "Mon, 01 Jan 1600 00:00:00 GMT",            // before 1601
        "Mon, 01 Jan 2020 24:00:00 GMT",
        "Mon, 01 Jan 2020 23:60:00 GMT",
        "Mon, 01 Jan 2020 23:59:60 GMT",            // no leap seconds
        "Mon, 01 Jan 2020 GMT",                     // no time
        "Mon, 01 2020 00:00:00 GMT",                // no month
        "Mon, Jan 00:00:00 GMT",                    // no day or year
        "Mon, 01 Jan 2020 00:00 GMT",               // a time needs three fields
    ])
    func refuses(text: String) {
        #expect(expiry(text) == nil)
    }

    @Test func aDateBeyondTheLatestRepresentableIsClamped() {
        #expect(expiry("Fri, 31 Dec 9999 23:59:59 GMT") == .distantFuture)
    }
}
