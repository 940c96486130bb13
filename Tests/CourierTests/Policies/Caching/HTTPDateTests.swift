import Foundation
import Testing

@testable import Courier

/// RFC 9110 §5.6.7's three shapes are read; what a cookie's date would forgive is not.
struct HTTPDateTests {
    /// 1994-11-06T08:49:37Z, RFC 9110's example.
    private let example = Date(timeIntervalSince1970: 784_111_777)
    private let now = Date(timeIntervalSince1970: 1_795_000_000)   // in 2026

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06-Nov-94 08:49:37 GMT",
        "Sun Nov  6 08:49:37 1994",
        "SUN, 06 NOV 1994 08:49:37 gmt",
    ])
    func eachShapeOfTheGrammarNamesTheSameInstant(text: String) {
        #expect(HTTPDate.parse(text, now: now) == example)
    }

    @Test func aTwoDigitYearIsNeverMoreThanFiftyYearsAhead() {
        #expect(HTTPDate.parse("Thursday, 18-Aug-50 02:01:18 GMT", now: now) == HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT"))
        #expect(HTTPDate.parse("Friday, 18-Aug-77 02:01:18 GMT", now: now) == HTTPDate.parse("Thu, 18 Aug 1977 02:01:18 GMT"))
    }

    @Test func datesPastTheThirtyTwoBitEpochAndLeapDaysAreExact() {
        #expect(HTTPDate.parse("Tue, 19 Jan 2038 03:14:08 GMT") == Date(timeIntervalSince1970: 2_147_483_648))
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == Date(timeIntervalSince1970: 1_709_164_800))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
    }

    /// RFC 9111 §5.3: an `Expires` that is not an HTTP-date means already expired, however
    /// far ahead a lenient reading would put it.
    @Test func anInvalidExpiresGivesNoFreshness() {
        func lifetime(expires: String) -> TimeInterval {
            let response = StoredResponse(
                statusCode: 200,
                headerFields: [StoredField(name: "Date", value: "Sun, 06 Nov 1994 08:49:37 GMT"), StoredField(name: "Expires", value: expires)],
                url: "http://127.0.0.1/", httpVersionMajor: 1, httpVersionMinor: 1, varyingRequestFields: [:],
                requestTime: example, responseTime: example
            )
            return response.freshnessLifetime(heuristics: false)
        }
        #expect(lifetime(expires: "Sun, 06 Nov 1994 09:49:37 GMT") == 3_600)
        #expect(lifetime(expires: "Sun, 06 Nov 1994 09:49:37 UTC") == 0)
        #expect(lifetime(expires: "Sun, 06-Nov-1994 09:49:37 GMT") == 0)
    }

    /// The cache-tests suite's invalid `Expires` values, and values out of range.
    @Test(arguments: [
        "0", "", "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
        "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
        "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 31 Apr 2050 02:01:18 GMT",
        "Fri, 29 Feb 2023 00:00:00 GMT", "Thu, 18 Aug 2050 24:00:00 GMT", "Thu, 18 Aug 2050 02:61:18 GMT",
        "Thu, 18 Aug 2050 02:01:18 GMT ", "Thu, +8 Aug 2050 02:01:18 GMT", "Xyz, 18 Aug 2050 02:01:18 GMT",
        "Thursday, 18-Aug-2050 02:01:18 GMT", "Thu Aug 8 02:01:18 2050",
    ])
    func anythingElseIsInvalid(text: String) {
        #expect(HTTPDate.parse(text, now: now) == nil)
    }
}
